#ifndef TRAILBOOK_CQRENCODE_SHIM_H
#define TRAILBOOK_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
