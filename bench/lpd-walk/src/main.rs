// bench/lpd-walk: linux-perf-data 0.6 (Debian's librust-linux-perf-data-dev,
// built offline from /usr/share/cargo/registry) parsing every record of a
// perf.data file, every event record's fields decoded: the peer of
// `perfdata stat`. Prints "N records, N samples, N unparsed".
use linux_perf_data::linux_perf_event_reader::EventRecord;
use linux_perf_data::{PerfFileReader, PerfFileRecord};

fn main() {
    let path = std::env::args().nth(1).expect("usage: lpd-walk FILE");
    let file = std::fs::File::open(&path).expect("cannot open the file");
    let reader = std::io::BufReader::new(file);
    let PerfFileReader { mut perf_file, mut record_iter } = match PerfFileReader::parse_file(reader) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("lpd-walk: {path}: {e}");
            std::process::exit(1);
        }
    };
    let (mut records, mut samples, mut unparsed) = (0u64, 0u64, 0u64);
    loop {
        match record_iter.next_record(&mut perf_file) {
            Ok(Some(PerfFileRecord::EventRecord { record, .. })) => {
                records += 1;
                match record.parse() {
                    Ok(EventRecord::Sample(_)) => samples += 1,
                    Ok(_) => {}
                    Err(_) => unparsed += 1,
                }
            }
            Ok(Some(PerfFileRecord::UserRecord(_))) => records += 1,
            Ok(None) => break,
            Err(e) => {
                eprintln!("lpd-walk: {path}: {e}");
                std::process::exit(1);
            }
        }
    }
    println!("{records} records, {samples} samples, {unparsed} unparsed");
}
