/* pd_inflate.h - zlib streams (RFC 1950 around RFC 1951 deflate) decoded in
   one call, for compressed ELF sections (SHF_COMPRESSED, ELFCOMPRESS_ZLIB):
   no library. The output goes to a caller buffer that must hold all of it;
   every read and write is checked, and the Adler-32 trailer too. */
#ifndef PD_INFLATE_H
#define PD_INFLATE_H

#include <stddef.h>

/* 0 and *written when in[0..n) is one whole zlib stream that fits out;
   -1 when it is malformed, truncated, fails its checksum or does not fit
   (*written is then left alone). Bytes after the last block and before the
   4-byte trailer are ignored. out may be NULL only with cap 0 (then only a
   stream of no bytes succeeds). Nothing is written past the bytes decoded:
   on success out[*written..cap) is as it was; on failure out[0..cap) may hold
   part of the output. About 7 KiB of stack, no allocation. */
int pd_zlib_inflate(const unsigned char *in, size_t n, unsigned char *out, size_t cap, size_t *written);

#endif
