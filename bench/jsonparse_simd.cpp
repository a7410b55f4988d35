// bench/jsonparse_simd.cpp: bench/jsonparse.c's work with simdjson (C++,
// ondemand API), for comparison only.  Built and run by bench/jsonparse.sh.
#include <cstdio>
#include <cstdint>
#include <string>
#include <simdjson.h>

int
main(int argc, char *argv[])
{
	simdjson::ondemand::parser parser;
	std::string line;
	uint64_t lines = 0, bad = 0, total = 0, sum = 0;
	char *buf = nullptr;
	size_t cap = 0;
	ssize_t n;

	if (argc != 2)
		return 2;
	while ((n = getline(&buf, &cap, stdin)) > 0) {
		if (buf[n - 1] == '\n')
			n--;
		lines++;
		simdjson::padded_string ps(buf, (size_t)n);
		auto doc = parser.iterate(ps);
		std::string_view v;
		if (doc[argv[1]].get_string().get(v)) {
			bad++;
			continue;
		}
		total += v.size();
		if (v.size() > 0)
			sum += (unsigned char)v[v.size() / 2];
	}
	printf("simdjson %llu lines %llu bad %llu bytes %llu\n",
	    (unsigned long long)lines, (unsigned long long)bad,
	    (unsigned long long)total, (unsigned long long)sum);
	free(buf);
	return 0;
}
