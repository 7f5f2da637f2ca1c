/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DMA data path of switchctl: descriptors submitted to /dev/pcieswN
 * with PCIESW_IOC_DMA_SUBMIT, completions read back with poll() and read().
 * No netlink here; dma copy and dma bench (cmd_dma.c) drive it.
 */
#ifndef SWITCHCTL_DMA_H
#define SWITCHCTL_DMA_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/pciesw.h>

/* One end of a move: an offset in an endpoint's window, or host memory. */
struct dma_end {
	bool host;
	uint32_t ep_id;
	uint64_t addr;		/* offset in the window (not for the host) */
	char text[64];		/* "nvme0:4096", "host": for messages */
};

/*
 * Move @size bytes from @src to @dst in descriptors of @block bytes, keeping
 * @depth blocks in flight, block i on channel i % @channels.  Host memory is
 * a scratch buffer of min(@depth, blocks) slots of @block bytes, each block
 * in flight holding one.  With @bounce each block goes @src -> its host slot
 * -> @dst, the second transfer submitted when the first completed ok.
 */
struct dma_job {
	struct dma_end src, dst;
	uint64_t size;
	uint64_t block;
	uint32_t depth;
	uint32_t channels;
	bool bounce;
};

/* Unknown status values (a newer module) are counted here. */
#define DMA_STATUS_UNKNOWN	(PCIESW_DMA_STATUS_MAX + 1)

struct dma_result {
	uint64_t bytes;		/* bytes that reached @dst */
	uint64_t completions;	/* transfers: blocks, twice that with bounce */
	uint64_t modelled_ns;	/* the sum of the completions' duration_ns */
	uint64_t wall_ns;	/* first submission to last completion */
	uint64_t status[DMA_STATUS_UNKNOWN + 1];	/* completions by status */
	uint32_t first_status;	/* of the first completion that failed */
	uint64_t failed;	/* completions not ok */
};

/* Host memory a job needs (0: none). */
uint64_t dma_host_bytes(const struct dma_job *job);

/*
 * Opens /dev/pcieswN of switch @id into *@fd.  Returns EXIT_OK, or prints
 * why not and returns EXIT_FAIL.
 */
int dma_open(uint32_t id, int *fd);

/*
 * Runs @job on @fd and fills @res.  Returns EXIT_OK when every descriptor
 * was submitted and completed (whatever its status: see @res), or prints
 * why not (the submission refused, no completion within a minute) and
 * returns EXIT_FAIL; what was submitted then is cancelled by closing @fd.
 */
int dma_run(int fd, const struct dma_job *job, struct dma_result *res);

#endif /* SWITCHCTL_DMA_H */
