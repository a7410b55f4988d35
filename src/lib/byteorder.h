/*
 * Little-endian encoding of integers, so that bytes fed to XXH3 (and so
 * every fingerprint) are the same on every machine.
 */
#ifndef BYTEORDER_H
#define BYTEORDER_H

#include <endian.h>
#include <stdint.h>

#define le64(x)	htole64((uint64_t)(x))
#define le32(x)	htole32((uint32_t)(x))

#endif
