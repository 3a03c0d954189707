/* See prefetch.h. One producer (the thread), one consumer (stdio's read
 * callback), a ring of fixed slots guarded by one mutex; the consumer copies
 * out of a slot without holding the lock, since the producer never touches
 * a slot that is full. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* fopencookie */
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "prefetch.h"

#define SLOT_SIZE (1u << 20)
#define SLOTS 8

struct slot {
	size_t len;
	int err; /* errno of a failed read; len 0 and err 0 is end of file */
};

struct cap_prefetch {
	int fd;
	pthread_t thread;
	int started;
	pthread_mutex_t mu;
	pthread_cond_t can_fill, can_read;
	struct slot slots[SLOTS];
	uint8_t *ring;
	unsigned head, count; /* consumer's slot, full slots */
	size_t rpos;          /* consumer's offset in the head slot */
	off_t pos;            /* consumer's position in the file */
	int stop, done;       /* stop: closing; done: producer hit EOF/error */
	FILE *fp;
	char iobuf[1 << 18]; /* stdio's buffer (glibc ignores a size without one) */
	int closed;           /* the FILE's close callback ran */
};

static void *producer(void *arg)
{
	struct cap_prefetch *pf = arg;
	unsigned tail = 0;
	for (;;) {
		pthread_mutex_lock(&pf->mu);
		while (pf->count == SLOTS && !pf->stop)
			pthread_cond_wait(&pf->can_fill, &pf->mu);
		int stop = pf->stop;
		pthread_mutex_unlock(&pf->mu);
		if (stop)
			return NULL;

		uint8_t *dst = pf->ring + (size_t)tail * SLOT_SIZE;
		size_t got = 0;
		int err = 0;
		while (got < SLOT_SIZE) {
			ssize_t n = read(pf->fd, dst + got, SLOT_SIZE - got);
			if (n > 0) {
				got += (size_t)n;
				continue;
			}
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				err = errno;
			break;
		}
		pthread_mutex_lock(&pf->mu);
		pf->slots[tail].len = got;
		pf->slots[tail].err = got ? 0 : err;
		pf->count++;
		int last = got < SLOT_SIZE;
		if (last && got) {
			/* A short slot is followed by an explicit end marker. */
			pthread_cond_signal(&pf->can_read);
			while (pf->count == SLOTS && !pf->stop)
				pthread_cond_wait(&pf->can_fill, &pf->mu);
			if (!pf->stop) {
				unsigned t2 = (tail + 1) % SLOTS;
				pf->slots[t2].len = 0;
				pf->slots[t2].err = err;
				pf->count++;
			}
		}
		if (last)
			pf->done = 1;
		pthread_cond_signal(&pf->can_read);
		pthread_mutex_unlock(&pf->mu);
		if (last)
			return NULL;
		tail = (tail + 1) % SLOTS;
	}
}

static ssize_t cookie_read(void *c, char *buf, size_t size)
{
	struct cap_prefetch *pf = c;
	size_t out = 0;
	while (out < size) {
		pthread_mutex_lock(&pf->mu);
		while (pf->count == 0)
			pthread_cond_wait(&pf->can_read, &pf->mu);
		struct slot s = pf->slots[pf->head];
		pthread_mutex_unlock(&pf->mu);
		if (s.len == 0) {
			/* End marker: stays in place so later reads see it too. */
			if (s.err && !out) {
				errno = s.err;
				return -1;
			}
			break;
		}
		size_t n = s.len - pf->rpos;
		if (n > size - out)
			n = size - out;
		memcpy(buf + out, pf->ring + (size_t)pf->head * SLOT_SIZE + pf->rpos, n);
		out += n;
		pf->rpos += n;
		pf->pos += (off_t)n;
		if (pf->rpos == s.len) {
			pthread_mutex_lock(&pf->mu);
			pf->head = (pf->head + 1) % SLOTS;
			pf->count--;
			pf->rpos = 0;
			pthread_cond_signal(&pf->can_fill);
			pthread_mutex_unlock(&pf->mu);
		}
	}
	return (ssize_t)out;
}

/* Only "where am I" is supported: ftell, and seeks to the current place. */
static int cookie_seek(void *c, off64_t *off, int whence)
{
	struct cap_prefetch *pf = c;
	if ((whence == SEEK_CUR && *off == 0) || (whence == SEEK_SET && *off == pf->pos)) {
		*off = pf->pos;
		return 0;
	}
	errno = ESPIPE;
	return -1;
}

static int cookie_close(void *c)
{
	struct cap_prefetch *pf = c;
	pf->closed = 1;
	return 0;
}

FILE *cap_prefetch_open(const char *path, struct cap_prefetch **out)
{
	struct cap_prefetch *pf = calloc(1, sizeof(*pf));
	if (!pf)
		return NULL;
	pf->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (pf->fd < 0)
		goto fail;
	pf->ring = malloc((size_t)SLOTS * SLOT_SIZE);
	if (!pf->ring)
		goto fail;
	(void)posix_fadvise(pf->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	pthread_mutex_init(&pf->mu, NULL);
	pthread_cond_init(&pf->can_fill, NULL);
	pthread_cond_init(&pf->can_read, NULL);
	cookie_io_functions_t io = { .read = cookie_read, .seek = cookie_seek, .close = cookie_close };
	pf->fp = fopencookie(pf, "r", io);
	if (!pf->fp)
		goto fail;
	setvbuf(pf->fp, pf->iobuf, _IOFBF, sizeof(pf->iobuf));
	int e = pthread_create(&pf->thread, NULL, producer, pf);
	if (e) {
		fclose(pf->fp);
		errno = e;
		pf->fp = NULL;
		goto fail;
	}
	pf->started = 1;
	*out = pf;
	return pf->fp;
fail:;
	int saved = errno;
	if (pf->fd >= 0)
		close(pf->fd);
	free(pf->ring);
	free(pf);
	errno = saved;
	return NULL;
}

void cap_prefetch_close(struct cap_prefetch *pf, FILE *fp, int closed_by_caller)
{
	if (!pf)
		return;
	if (!closed_by_caller && fp)
		fclose(fp);
	pthread_mutex_lock(&pf->mu);
	pf->stop = 1;
	pthread_cond_broadcast(&pf->can_fill);
	pthread_mutex_unlock(&pf->mu);
	if (pf->started)
		pthread_join(pf->thread, NULL);
	close(pf->fd);
	pthread_mutex_destroy(&pf->mu);
	pthread_cond_destroy(&pf->can_fill);
	pthread_cond_destroy(&pf->can_read);
	free(pf->ring);
	free(pf);
}
