// cxx-workload.cpp - the C++ program of the cxx-*.data fixtures (see
// record-lang.sh): templates, a class template's member, an anonymous
// namespace, a lambda and std::function, a virtual call, an inlined
// helper, and libstdc++'s streams (std::ostream names, which perf prints
// in their short form), each busy for a share of the run.
#include <cstdlib>
#include <ctime>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace ns {
template <typename T> struct Calc {
    T acc;
    __attribute__((noinline)) T run(int n) {
        for (int i = 0; i < n; i++) acc = acc * (T)1.0000001 + (T)(i & 7);
        return acc;
    }
};

namespace {
__attribute__((noinline)) long anon_work(const std::vector<int> &v) {
    long s = 0;
    for (int x : v) s += (long)x * x % 7;
    return s;
}
} // namespace

struct Shape {
    virtual ~Shape() {}
    virtual double area() const = 0;
};
struct Square : Shape {
    double side;
    explicit Square(double s) : side(s) {}
    double area() const override;
};
__attribute__((noinline)) double Square::area() const {
    double a = 0;
    for (int i = 0; i < 4000; i++) a += side * side / (i + 1);
    return a;
}
} // namespace ns

static inline unsigned inlined_helper(unsigned x) { return (x * 2654435761u) >> 7; }

__attribute__((noinline)) unsigned with_lambda(int n) {
    auto f = [n](int k) {
        unsigned r = 0;
        for (int i = 0; i < n; i++) r += inlined_helper((unsigned)(i + k));
        return r;
    };
    std::function<unsigned(int)> g = f;
    return g(3) + f(5);
}

__attribute__((noinline)) std::string format_numbers(int n) {
    std::ostringstream os;
    for (int i = 0; i < n; i++) os << i << ' ';
    return os.str();
}

__attribute__((noinline)) size_t count_words(std::map<std::string, int> &m, const std::string &text) {
    std::istringstream in(text);
    std::string w;
    while (in >> w) m[w]++;
    return m.size();
}

static double now_ms() {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    double ms = argc > 1 ? atof(argv[1]) : 300, end = now_ms() + ms;
    ns::Calc<double> cd{1.0};
    ns::Calc<float> cf{1.0f};
    std::vector<int> v(20000);
    std::unique_ptr<ns::Shape> shape(new ns::Square(1.5));
    std::map<std::string, int> words;
    double sink = 0;
    for (size_t i = 0; i < v.size(); i++) v[i] = (int)i;
    while (now_ms() < end) {
        sink += cd.run(20000) + cf.run(10000);
        sink += (double)ns::anon_work(v);
        sink += shape->area();
        sink += with_lambda(20000);
        std::string text = format_numbers(500);
        sink += (double)count_words(words, text);
    }
    return sink == 0.5;
}
