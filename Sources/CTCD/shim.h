// libtcd (Debian: libtcd-dev): reads XTide's harmonic constants databases (.tcd).
#include <tcd.h>
