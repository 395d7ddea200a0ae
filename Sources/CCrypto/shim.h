#ifndef TRAILBOOK_CCRYPTO_SHIM_H
#define TRAILBOOK_CCRYPTO_SHIM_H
/* OpenSSL's digest interface: SHA-256 with the CPU's SHA instructions where it has them. */
#include <openssl/evp.h>
#endif
