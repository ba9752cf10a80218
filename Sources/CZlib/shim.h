#include <zlib.h>

/// inflateInit2 is a macro Swift cannot call: a raw deflate stream (no zlib header), the largest window (RFC 7692
/// §7.2.2 has raw DEFLATE; a 32 KiB window reads data compressed with any smaller one).
static inline int syncsim_inflate_init_raw(z_streamp stream) {
    return inflateInit2(stream, -MAX_WBITS);
}

/// deflateInit2 is a macro too: a raw deflate stream of `window_bits` (9...15; RFC 7692 §7.1.2.1's
/// server_max_window_bits), the default compression level and memory level.
static inline int syncsim_deflate_init_raw(z_streamp stream, int window_bits) {
    return deflateInit2(stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -window_bits, 8, Z_DEFAULT_STRATEGY);
}
