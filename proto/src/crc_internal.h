/* Internal hooks of the CRC code, for the unit tests only. Not installed,
 * not part of the API, and not exported from the shared library (the tests
 * link the static one). */
#ifndef ROCEWIRE_CRC_INTERNAL_H
#define ROCEWIRE_CRC_INTERNAL_H

/* Makes rw_crc32() and rw_crc32_patch() use the named implementation
 * ("vpclmulqdq", "pclmulqdq", "slice8", as rw_crc32_impl() names them), or
 * the automatic choice again when name is NULL. Returns 0, or -1 when the
 * name is unknown or this CPU cannot run that implementation (the choice is
 * then left as it was). Process-wide: not for use while other threads
 * compute CRCs. */
#if defined(__GNUC__)
__attribute__((visibility("hidden")))
#endif
int rw__crc32_force_impl(const char *name);

#endif
