#include "chttp.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libcurl's functions, looked up once. Linking libcurl would load it and its ~35 dependencies
// (TLS, Kerberos, LDAP, ...) and run their constructors at every start of every command.
static struct {
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*global_init)(long);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[200];

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "cannot load libcurl.so.4 (%s); install it with: sudo apt-get install libcurl4",
                 dlerror());
        return;
    }
#define FIND(field, name)                                                                                  \
    if (!(*(void **)&api.field = dlsym(library, name))) {                                                  \
        snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s; install libcurl4 7.x or later", name); \
        return;                                                                                            \
    }
    FIND(easy_init, "curl_easy_init")
    FIND(easy_setopt, "curl_easy_setopt")
    FIND(easy_perform, "curl_easy_perform")
    FIND(easy_getinfo, "curl_easy_getinfo")
    FIND(easy_cleanup, "curl_easy_cleanup")
    FIND(slist_append, "curl_slist_append")
    FIND(slist_free_all, "curl_slist_free_all")
    FIND(easy_strerror, "curl_easy_strerror")
    FIND(global_init, "curl_global_init")
#undef FIND
    if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "libcurl did not start");
        return;
    }
    loaded = 1;
}

typedef struct {
    char *bytes;
    size_t length;
    int failed;
} buffer;

static size_t append(char *data, size_t size, size_t count, void *target) {
    buffer *b = target;
    size_t n = size * count;
    char *grown = realloc(b->bytes, b->length + n + 1);
    if (!grown) {
        b->failed = 1;
        return 0;
    }
    memcpy(grown + b->length, data, n);
    b->length += n;
    grown[b->length] = 0;
    b->bytes = grown;
    return n;
}

static int kind_of(CURLcode code) {
    switch (code) {
    case CURLE_COULDNT_CONNECT: return 1;
    case CURLE_OPERATION_TIMEDOUT: return 2;
    case CURLE_COULDNT_RESOLVE_HOST: return 3;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS: return 4;
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_PARTIAL_FILE: return 5;
    default: return 0;
    }
}

void chttp_send(const char *method, const char *url, const char *const *headers, size_t header_count,
                const void *body, size_t body_length, long timeout_ms, chttp_answer *answer) {
    memset(answer, 0, sizeof *answer);
    pthread_once(&once, load);
    if (!loaded) {
        answer->failure = -1;
        snprintf(answer->message, sizeof answer->message, "%s", load_error);
        return;
    }
    CURL *curl = api.easy_init();
    if (!curl) {
        answer->failure = -1;
        snprintf(answer->message, sizeof answer->message, "libcurl could not make a request");
        return;
    }
    char error[CURL_ERROR_SIZE] = {0};
    buffer content = {0}, lines = {0};
    struct curl_slist *list = NULL;
    for (size_t i = 0; i < header_count; i++) list = api.slist_append(list, headers[i]);
    api.easy_setopt(curl, CURLOPT_URL, url);
    api.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    api.easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    api.easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
    api.easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    api.easy_setopt(curl, CURLOPT_MAXREDIRS, 10L);
    api.easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    api.easy_setopt(curl, CURLOPT_WRITEFUNCTION, append);
    api.easy_setopt(curl, CURLOPT_WRITEDATA, &content);
    api.easy_setopt(curl, CURLOPT_HEADERFUNCTION, append);
    api.easy_setopt(curl, CURLOPT_HEADERDATA, &lines);
    if (strcmp(method, "GET") == 0) {
        api.easy_setopt(curl, CURLOPT_HTTPGET, 1L);
    } else {
        if (strcmp(method, "POST") == 0) {
            api.easy_setopt(curl, CURLOPT_POST, 1L);
        } else {
            api.easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
        }
        api.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
        api.easy_setopt(curl, CURLOPT_POSTFIELDS, body_length > 0 ? body : "");
    }
    CURLcode code = api.easy_perform(curl);
    if (code == CURLE_OK && (content.failed || lines.failed)) code = CURLE_OUT_OF_MEMORY;
    if (code == CURLE_OK) {
        api.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &answer->status);
        answer->body = (unsigned char *)content.bytes;
        answer->body_length = content.length;
        answer->headers = lines.bytes;
        answer->headers_length = lines.length;
    } else {
        answer->failure = (int)code;
        answer->failure_kind = kind_of(code);
        snprintf(answer->message, sizeof answer->message, "%s", error[0] ? error : api.easy_strerror(code));
        free(content.bytes);
        free(lines.bytes);
    }
    api.slist_free_all(list);
    api.easy_cleanup(curl);
}

void chttp_answer_free(chttp_answer *answer) {
    free(answer->body);
    free(answer->headers);
    answer->body = NULL;
    answer->headers = NULL;
}
