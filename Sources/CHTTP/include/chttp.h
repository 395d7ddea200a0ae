#ifndef TRAILBOOK_CHTTP_H
#define TRAILBOOK_CHTTP_H

#include <stddef.h>

/// One HTTP exchange's answer: the status of the last response (after redirects), its body and
/// the raw header lines of every response, or why there was none.
typedef struct chttp_answer {
    long status;
    unsigned char *body;
    size_t body_length;
    char *headers;
    size_t headers_length;
    /// 0: an answer came. -1: libcurl could not be loaded. Else libcurl's error code.
    int failure;
    /// 1 when the failure was a connection refused, 2 a time-out, 3 an unknown host, 4 TLS,
    /// 5 a connection lost; 0 otherwise.
    int failure_kind;
    char message[256];
} chttp_answer;

/// Sends one request through libcurl, loaded on first use (so a command that sends nothing
/// never loads it and its dependencies). `headers` are "Name: value" lines. Blocks until the
/// answer, a failure or `timeout_ms`. Free the answer with `chttp_answer_free`.
void chttp_send(const char *method, const char *url, const char *const *headers, size_t header_count,
                const void *body, size_t body_length, long timeout_ms, chttp_answer *answer);

void chttp_answer_free(chttp_answer *answer);

#endif
