#ifndef ROSTER_CLIBPQ_SHIM_H
#define ROSTER_CLIBPQ_SHIM_H

// Debian's libpq-dev puts the client header under postgresql/, which is
// on the default include path; pkg-config is not needed (and its flags
// are not wanted).
#include <postgresql/libpq-fe.h>

#endif
