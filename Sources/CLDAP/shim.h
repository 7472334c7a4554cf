#ifndef ROSTER_CLDAP_SHIM_H
#define ROSTER_CLDAP_SHIM_H

// OpenLDAP's client library (libldap 2.5, Debian's libldap-dev), without
// the calls it marks deprecated: ldap.h declares them only when
// LDAP_DEPRECATED is on.
#undef LDAP_DEPRECATED
#define LDAP_DEPRECATED 0
#include <lber.h>
#include <ldap.h>

// Macros Swift cannot import (pointer casts), as functions.
static inline void *roster_ldap_option_on(void) { return LDAP_OPT_ON; }
static inline void *roster_ldap_option_off(void) { return LDAP_OPT_OFF; }

#endif
