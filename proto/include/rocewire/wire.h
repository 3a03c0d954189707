/* Big-endian field access on byte pointers.
 *
 * Wire headers are read and written through these accessors only: no packed
 * structs and no bitfields, because 24-bit fields, compiler-defined bitfield
 * order and unaligned mbuf data all break the struct approach (see STYLE.md). */
#ifndef ROCEWIRE_WIRE_H
#define ROCEWIRE_WIRE_H

#include <stdint.h>
#include <string.h>

static inline uint16_t rw_get_be16(const uint8_t *p)
{
	return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static inline uint32_t rw_get_be24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline uint32_t rw_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t rw_get_be64(const uint8_t *p)
{
	return (uint64_t)rw_get_be32(p) << 32 | rw_get_be32(p + 4);
}

static inline uint32_t rw_get_le32(const uint8_t *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static inline void rw_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void rw_put_be24(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
}

static inline void rw_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void rw_put_be64(uint8_t *p, uint64_t v)
{
	rw_put_be32(p, (uint32_t)(v >> 32));
	rw_put_be32(p + 4, (uint32_t)v);
}

static inline void rw_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

#endif
