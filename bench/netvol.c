// netvol — an emulated network volume for the benchmark: a FUSE file
// system holding one read-only file, "vol", whose every read is answered
// after a fixed delay (default 1 ms), as a network disk answers after a
// round trip. bench/sweep-settle-vs-fixed.sh -n mounts it, puts a
// read-only loop device with direct I/O over the file (a block device the
// sweeps read, whose reads a cgroup v1 blkio throttle can cap) and removes
// both at the end.
//
// Every read waits the delay from its arrival on a thread of its own (up
// to -o max_threads), so reads in flight overlap like a network volume's:
// IOPS ≈ in flight / delay until the CPU spent per read (the kernel's FUSE
// round trip and this process, some tens of µs) runs out. The data is a
// fixed 1 MiB of pseudo-random bytes repeated over the file.
//
// Build: cc -O2 -Wall -o netvol bench/netvol.c $(pkg-config --cflags --libs fuse3)
// Run:   netvol -o max_threads=1024 [--delay-us=1000] [--size-mib=1024] MOUNTPOINT
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

static struct {
	long delay_us;
	long size_mib;
} opt = {1000, 1024};

static const struct fuse_opt nv_opts[] = {
	{"--delay-us=%ld", offsetof(__typeof__(opt), delay_us), 0},
	{"--size-mib=%ld", offsetof(__typeof__(opt), size_mib), 0},
	FUSE_OPT_END,
};

#define PATTERN (1 << 20)
static unsigned char pattern[PATTERN];

static off_t vol_size(void) { return (off_t)opt.size_mib << 20; }

static void *nv_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
	cfg->direct_io = 1; // every read reaches this process: no page cache
	cfg->entry_timeout = cfg->attr_timeout = 3600;
	// Asynchronous direct reads in flight at once (the kernel's default is 12).
	conn->max_background = 1024;
	conn->congestion_threshold = 1024;
	return NULL;
}

static int nv_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
	(void)fi;
	memset(st, 0, sizeof *st);
	if (strcmp(path, "/") == 0) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (strcmp(path, "/vol") == 0) {
		st->st_mode = S_IFREG | 0400;
		st->st_nlink = 1;
		st->st_size = vol_size();
		return 0;
	}
	return -ENOENT;
}

static int nv_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags) {
	(void)off, (void)fi, (void)flags;
	if (strcmp(path, "/") != 0)
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, "vol", NULL, 0, 0);
	return 0;
}

static int nv_open(const char *path, struct fuse_file_info *fi) {
	if (strcmp(path, "/vol") != 0)
		return -ENOENT;
	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return -EROFS;
	fi->direct_io = 1;
	return 0;
}

static int nv_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
	(void)path, (void)fi;
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0); // this thread wakes on time, not up to 50 µs late
	t.tv_nsec += opt.delay_us * 1000;
	t.tv_sec += t.tv_nsec / 1000000000;
	t.tv_nsec %= 1000000000;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
		;
	if (off >= vol_size())
		return 0;
	if ((off_t)size > vol_size() - off)
		size = vol_size() - off;
	for (size_t done = 0; done < size;) {
		size_t at = (off + done) % PATTERN, n = PATTERN - at;
		if (n > size - done)
			n = size - done;
		memcpy(buf + done, pattern + at, n);
		done += n;
	}
	return (int)size;
}

static const struct fuse_operations nv_ops = {
	.init = nv_init,
	.getattr = nv_getattr,
	.readdir = nv_readdir,
	.open = nv_open,
	.read = nv_read,
};

int main(int argc, char *argv[]) {
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	if (fuse_opt_parse(&args, &opt, nv_opts, NULL) == -1 || opt.delay_us < 0 || opt.size_mib <= 0)
		return 2;
	unsigned long x = 88172645463325252UL;
	for (size_t i = 0; i < PATTERN; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		pattern[i] = (unsigned char)x;
	}
	int ret = fuse_main(args.argc, args.argv, &nv_ops, NULL);
	fuse_opt_free_args(&args);
	return ret;
}
