#include <zlib.h>

/// inflateInit2 is a macro Swift cannot call: a raw deflate stream (no zlib header), the largest window (RFC 7692
/// §7.2.2 has raw DEFLATE; a 32 KiB window reads data compressed with any smaller one).
static inline int syncsim_inflate_init_raw(z_streamp stream) {
    return inflateInit2(stream, -MAX_WBITS);
}
