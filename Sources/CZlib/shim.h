#ifndef TRAILBOOK_CZLIB_SHIM_H
#define TRAILBOOK_CZLIB_SHIM_H
#include <zlib.h>

/* inflateInit2 is a macro Swift cannot call; this passes the version and size it adds. */
static inline int tb_inflate_init_gzip(z_stream *stream) {
    /* 15 + 32: the largest window, and detect a gzip or zlib header automatically. */
    return inflateInit2(stream, 15 + 32);
}
/* A zip entry's data: raw deflate, no header. */
static inline int tb_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -15);
}
#endif
