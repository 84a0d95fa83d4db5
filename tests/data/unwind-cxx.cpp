// unwind-cxx.cpp - the C++ program of the unwind fixtures (g++ -O2
// without frame pointers, libstdc++ linked in): exceptions thrown through
// several frames and caught, templates and lambdas the compiler inlines,
// std::sort and std::map.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace uw {
static volatile unsigned long sink;

template <typename T> struct Acc {
    T v{};
    void add(T x) { v = v * 31 + x; }  // inlined
};

[[gnu::noinline]] unsigned long parse(const std::string &s, int depth) {
    Acc<unsigned long> a;
    for (char c : s) a.add((unsigned long)c);
    if (depth == 0) {
        if (a.v % 5 == 0) throw std::runtime_error("bad input " + s);
        return a.v;
    }
    return parse(s + char('a' + depth % 26), depth - 1) + a.v;
}

[[gnu::noinline]] unsigned long guarded(const std::string &s) {
    try {
        return parse(s, 4);
    } catch (const std::runtime_error &e) {
        return e.what()[0];
    }
}

[[gnu::noinline]] void sort_and_count(unsigned seed) {
    std::vector<unsigned> v(2000);
    for (auto &x : v) x = seed = seed * 1103515245u + 12345u;
    std::sort(v.begin(), v.end(), [](unsigned a, unsigned b) { return (a >> 3) < (b >> 3); });
    std::map<unsigned, int> m;
    for (unsigned i = 0; i < 200; i++) m[v[i] % 97]++;
    sink += m.size() + v[3];
}
}  // namespace uw

int main(int argc, char **argv) {
    int ms = argc > 1 ? std::atoi(argv[1]) : 300;
    auto t0 = std::chrono::steady_clock::now();
    unsigned long n = 0;
    while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(ms)) {
        uw::sink += uw::guarded("k" + std::to_string(n));
        if (n % 8 == 0) uw::sort_and_count((unsigned)n);
        n++;
    }
    return 0;
}
