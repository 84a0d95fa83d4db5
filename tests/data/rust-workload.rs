// rust-workload.rs - the Rust program of the rust-*.data fixtures (see
// record-lang.sh): generics, a trait object, closures, a module, and
// std's HashMap and formatting, each busy for a share of the run.
use std::collections::HashMap;
use std::time::{Duration, Instant};

trait Shape {
    fn area(&self) -> f64;
}
struct Circle<T> {
    r: T,
}
impl Shape for Circle<f64> {
    #[inline(never)]
    fn area(&self) -> f64 {
        let mut a = 0.0;
        for i in 0..4000 {
            a += 3.14159 * self.r * self.r / (i as f64 + 1.0);
        }
        a
    }
}

mod inner {
    #[inline(never)]
    pub fn work<T: std::fmt::Debug>(v: &[T]) -> usize {
        v.iter().map(|x| format!("{:?}", x).len()).sum()
    }
}

#[inline(never)]
fn accumulate<T: Copy + Into<f64>>(v: &[T]) -> f64 {
    v.iter().fold(0.0, |a, &x| a * 0.999 + x.into())
}

#[inline(never)]
fn count(m: &mut HashMap<String, u32>, n: u32) -> usize {
    for i in 0..n {
        *m.entry(format!("k{}", i % 97)).or_default() += 1;
    }
    m.len()
}

fn main() {
    let ms: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(300);
    let end = Instant::now() + Duration::from_millis(ms);
    let shapes: Vec<Box<dyn Shape>> = vec![Box::new(Circle { r: 1.5f64 })];
    let nums: Vec<u32> = (0..20000).collect();
    let bytes: Vec<u8> = (0..200u32).map(|x| x as u8).collect();
    let mut m = HashMap::new();
    let mut sink = 0.0;
    while Instant::now() < end {
        sink += shapes.iter().map(|s| s.area()).sum::<f64>();
        sink += accumulate(&nums);
        sink += inner::work(&bytes) as f64;
        sink += count(&mut m, 2000) as f64;
    }
    std::process::exit((sink == 0.5) as i32);
}
