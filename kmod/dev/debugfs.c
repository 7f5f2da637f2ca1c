// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs: knobs for tests, not ABI.
 *
 *	pciesw/pcieswN/thermal_tick	write 1: advance the thermal model now
 *	pciesw/pcieswN/fw_power_loss	write N: the next firmware flash loses
 *					power once N bytes of its payload are
 *					written (0: off); read: N
 *	pciesw/pcieswN/portM/traffic	write "DIR CLASS BYTES", DIR ingress or
 *					egress, CLASS posted, non-posted or
 *					completion: count traffic on the port
 *					as the DMA engine does (non-posted:
 *					read requests for BYTES, their TLPs,
 *					no payload)
 *	pciesw/pcieswN/dma_bench	write "SRC SRC_OFF DST DST_OFF LEN"
 *					(endpoint ids, byte offsets, bytes):
 *					copy LEN bytes from one endpoint
 *					window to another with the DMA
 *					engine's page walk but no engine;
 *					read (pread at 0): "NS LEN" of this
 *					open file's last copy (make bench)
 *	pciesw/fault_delay_ms		write N: a fault of a mapping of any
 *					window waits N ms (at most 1000)
 *					after it found the window there,
 *					before it maps the page (0: off);
 *					read: N
 *
 * Port directories follow the ports: this view re-creates them from the
 * switch's event queue, without sw->lock, so their handlers may sleep on
 * it.  Writes drive the model as hardware would and do not wait for the
 * views (pciesw_switch_sync()): a removal of the port's directory may be
 * queued ahead, and it waits for this very handler.
 */

#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "instance.h"

/* most a single write may account: 1 TiB */
#define PCIESW_DEBUGFS_BYTES_MAX	BIT_ULL(40)

static struct dentry *pciesw_debugfs_root;

/**
 * struct pciesw_debugfs_port - what a port's files act on
 * @sw: the switch
 * @id: the port id
 * @dir: portM, NULL while the port does not exist
 */
struct pciesw_debugfs_port {
	struct pciesw_switch *sw;
	unsigned int id;
	struct dentry *dir;
};

/**
 * struct pciesw_debugfs - the debugfs directory of a switch
 * @dir: pcieswN
 * @ports: by port id
 */
struct pciesw_debugfs {
	struct dentry *dir;
	struct pciesw_debugfs_port ports[PCIESW_MAX_PORTS];
};

static const char * const pciesw_debugfs_dirs[] = {
	[PCIESW_DIR_INGRESS] = "ingress",
	[PCIESW_DIR_EGRESS] = "egress",
};

static const char * const pciesw_debugfs_classes[] = {
	[PCIESW_TLP_POSTED] = "posted",
	[PCIESW_TLP_NON_POSTED] = "non-posted",
	[PCIESW_TLP_COMPLETION] = "completion",
};

/*
 * Every knob forges state of the model (traffic, time) or allocates
 * endpoint memory: CAP_SYS_ADMIN, as fault injection (the mode of the
 * files, 0200/0600 in a root-only debugfs, is only the first gate).
 */
static int pciesw_debugfs_perm(const char *knob)
{
	if (capable(CAP_SYS_ADMIN))
		return 0;
	pr_err_ratelimited("pciesw: debugfs %s: fault injection needs CAP_SYS_ADMIN\n",
			   knob);
	return -EPERM;
}

static ssize_t pciesw_debugfs_traffic_write(struct file *file,
					    const char __user *ubuf,
					    size_t count, loff_t *ppos)
{
	struct pciesw_debugfs_port *dp = file->private_data;
	struct pciesw_switch *sw = dp->sw;
	struct pciesw_port *port;
	char buf[64], dir[16], cls[16];
	int d, c, ret;
	u64 bytes;

	ret = pciesw_debugfs_perm("traffic");
	if (ret)
		return ret;
	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "%15s %15s %llu", dir, cls, &bytes) != 3)
		return -EINVAL;
	d = match_string(pciesw_debugfs_dirs, ARRAY_SIZE(pciesw_debugfs_dirs),
			 dir);
	c = match_string(pciesw_debugfs_classes,
			 ARRAY_SIZE(pciesw_debugfs_classes), cls);
	if (d < 0 || c < 0 || !bytes || bytes > PCIESW_DEBUGFS_BYTES_MAX)
		return -EINVAL;

	ret = pciesw_view_lock(sw);
	if (ret)
		return ret;
	port = pciesw_port_find(sw, dp->id);
	if (port)
		pciesw_stats_account(sw, port->stats, d, c, bytes);
	else
		ret = -ENODEV;
	mutex_unlock(&sw->lock);
	return ret ?: count;
}

static const struct file_operations pciesw_debugfs_traffic_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = pciesw_debugfs_traffic_write,
};

static ssize_t pciesw_debugfs_tick_write(struct file *file,
					 const char __user *ubuf,
					 size_t count, loff_t *ppos)
{
	struct pciesw_switch *sw = file->private_data;
	bool yes;
	int ret;

	ret = pciesw_debugfs_perm("thermal_tick");
	if (ret)
		return ret;
	ret = kstrtobool_from_user(ubuf, count, &yes);
	if (ret || !yes)
		return -EINVAL;
	ret = pciesw_view_lock(sw);
	if (ret)
		return ret;
	pciesw_thermal_update(sw);
	mutex_unlock(&sw->lock);
	return count;
}

static const struct file_operations pciesw_debugfs_tick_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = pciesw_debugfs_tick_write,
};

static ssize_t pciesw_debugfs_power_loss_write(struct file *file,
					       const char __user *ubuf,
					       size_t count, loff_t *ppos)
{
	struct pciesw_switch *sw = file->private_data;
	u32 at;
	int ret;

	ret = pciesw_debugfs_perm("fw_power_loss");
	if (ret)
		return ret;
	ret = kstrtou32_from_user(ubuf, count, 0, &at);
	if (ret)
		return ret;
	ret = pciesw_view_lock(sw);
	if (ret)
		return ret;
	pciesw_fw_set_power_loss(sw, at);
	mutex_unlock(&sw->lock);
	return count;
}

static ssize_t pciesw_debugfs_power_loss_read(struct file *file,
					      char __user *ubuf, size_t count,
					      loff_t *ppos)
{
	struct pciesw_switch *sw = file->private_data;
	char buf[16];
	int ret, len;

	ret = pciesw_view_lock(sw);
	if (ret)
		return ret;
	len = scnprintf(buf, sizeof(buf), "%u\n", sw->fw.power_loss_at);
	mutex_unlock(&sw->lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations pciesw_debugfs_power_loss_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = pciesw_debugfs_power_loss_read,
	.write = pciesw_debugfs_power_loss_write,
};

/**
 * struct pciesw_debugfs_bench - an open dma_bench file
 * @sw: the switch (the file is removed before it is freed, and removal
 *	waits for running handlers)
 * @lock: protects @ns and @len
 * @ns: how long the last copy took
 * @len: its bytes, 0 before the first
 */
struct pciesw_debugfs_bench {
	struct pciesw_switch *sw;
	spinlock_t lock;	/* protects ns, len */
	u64 ns;
	u64 len;
};

static int pciesw_debugfs_bench_open(struct inode *inode, struct file *file)
{
	struct pciesw_debugfs_bench *fb;

	fb = kzalloc(sizeof(*fb), GFP_KERNEL);
	if (!fb)
		return -ENOMEM;
	fb->sw = inode->i_private;
	spin_lock_init(&fb->lock);
	file->private_data = fb;
	return 0;
}

static int pciesw_debugfs_bench_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

/*
 * "SRC SRC_OFF DST DST_OFF LEN": five decimal numbers and nothing else
 * (a newline at the end only); -ERANGE for a number too big for its
 * field, -EINVAL otherwise.
 */
static int pciesw_debugfs_bench_parse(char *buf, struct pciesw_dma_loc *src,
				      struct pciesw_dma_loc *dst, u64 *len)
{
	u64 *vals[] = { NULL, &src->addr, NULL, &dst->addr, len };
	u32 *ids[] = { &src->ep_id, NULL, &dst->ep_id, NULL, NULL };
	char *tok, *p = strim(buf);
	unsigned int i = 0;
	int ret;

	/* kstrto*() take "N\n"; only the trailing newline (gone) may end one */
	if (strchr(p, '\n'))
		return -EINVAL;
	while ((tok = strsep(&p, " \t")) != NULL) {
		if (!*tok)
			continue;
		if (i == ARRAY_SIZE(vals))
			return -EINVAL;
		ret = ids[i] ? kstrtou32(tok, 10, ids[i]) :
			       kstrtou64(tok, 10, vals[i]);
		if (ret)
			return ret;
		i++;
	}
	return i == ARRAY_SIZE(vals) ? 0 : -EINVAL;
}

/*
 * Resolve and reference under sw->lock, copy without it; the copy stops
 * at an unplug or the switch's removal.
 */
static ssize_t pciesw_debugfs_bench_write(struct file *file,
					  const char __user *ubuf,
					  size_t count, loff_t *ppos)
{
	struct pciesw_debugfs_bench *fb = file->private_data;
	struct pciesw_dma_loc src = {}, dst = {};
	struct pciesw_switch *sw = fb->sw;
	struct pciesw_dma_bench *b;
	char buf[128];
	u64 len, ns;
	int ret;

	ret = pciesw_debugfs_perm("dma_bench");
	if (ret)
		return ret;
	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	ret = pciesw_debugfs_bench_parse(buf, &src, &dst, &len);
	if (ret)
		return ret;

	ret = pciesw_view_lock(sw);
	if (ret)
		return ret;
	b = pciesw_dma_bench_start(sw, &src, &dst, len);
	mutex_unlock(&sw->lock);
	if (IS_ERR(b))
		return PTR_ERR(b);
	ret = pciesw_dma_bench_run(b, &ns);
	if (ret)
		return ret;
	spin_lock(&fb->lock);
	fb->ns = ns;
	fb->len = len;
	spin_unlock(&fb->lock);
	return count;
}

static ssize_t pciesw_debugfs_bench_read(struct file *file, char __user *ubuf,
					 size_t count, loff_t *ppos)
{
	struct pciesw_debugfs_bench *fb = file->private_data;
	char buf[48];
	int n;

	spin_lock(&fb->lock);
	n = scnprintf(buf, sizeof(buf), "%llu %llu\n", fb->ns, fb->len);
	spin_unlock(&fb->lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, n);
}

static const struct file_operations pciesw_debugfs_bench_fops = {
	.owner = THIS_MODULE,
	.open = pciesw_debugfs_bench_open,
	.release = pciesw_debugfs_bench_release,
	.read = pciesw_debugfs_bench_read,
	.write = pciesw_debugfs_bench_write,
	.llseek = default_llseek,
};

/* Directories for the ports in @ports; dbg->ports is this view's own. */
static void pciesw_debugfs_ports_add(struct pciesw_debugfs *dbg,
				     struct pciesw_switch *sw,
				     const unsigned long *ports)
{
	char name[16];
	unsigned long i;

	for_each_set_bit(i, ports, PCIESW_MAX_PORTS) {
		struct pciesw_debugfs_port *dp = &dbg->ports[i];

		if (dp->dir)
			continue;
		dp->sw = sw;
		dp->id = i;
		snprintf(name, sizeof(name), "port%lu", i);
		dp->dir = debugfs_create_dir(name, dbg->dir);
		debugfs_create_file("traffic", 0200, dp->dir, dp,
				    &pciesw_debugfs_traffic_fops);
	}
}

/* The directories of the ports in @ports (waits for their files' users). */
static void pciesw_debugfs_ports_del(struct pciesw_debugfs *dbg,
				     const unsigned long *ports)
{
	unsigned long i;

	for (i = PCIESW_MAX_PORTS; i-- > 0;) {
		if (!test_bit(i, ports))
			continue;
		debugfs_remove_recursive(dbg->ports[i].dir);
		dbg->ports[i].dir = NULL;
	}
}

static void pciesw_debugfs_apply(const struct pciesw_event *ev, void *snap)
{
	struct pciesw_dev *pdev = pciesw_dev_of(ev->sw);

	if (!pdev || !pdev->dbg)
		return;
	if (ev->type == PCIESW_EV_PORTS_REMOVE)
		pciesw_debugfs_ports_del(pdev->dbg, ev->ports);
	else if (ev->type == PCIESW_EV_PORTS_ADD)
		pciesw_debugfs_ports_add(pdev->dbg, ev->sw, ev->ports);
}

static const struct pciesw_view pciesw_debugfs_view = {
	.apply = pciesw_debugfs_apply,
};

/* Before the switch is published; debugfs failures are not fatal. */
int pciesw_debugfs_add(struct pciesw_dev *pdev)
{
	struct pciesw_switch *sw = pdev->sw;
	DECLARE_BITMAP(ports, PCIESW_MAX_PORTS);
	struct pciesw_debugfs *dbg;
	struct pciesw_port *port;

	dbg = kzalloc(sizeof(*dbg), GFP_KERNEL);
	if (!dbg)
		return -ENOMEM;
	dbg->dir = debugfs_create_dir(sw->name, pciesw_debugfs_root);
	debugfs_create_file("thermal_tick", 0200, dbg->dir, sw,
			    &pciesw_debugfs_tick_fops);
	debugfs_create_file("dma_bench", 0600, dbg->dir, sw,
			    &pciesw_debugfs_bench_fops);
	debugfs_create_file("fw_power_loss", 0600, dbg->dir, sw,
			    &pciesw_debugfs_power_loss_fops);
	bitmap_zero(ports, PCIESW_MAX_PORTS);
	mutex_lock(&sw->lock);
	pciesw_for_each_port(sw, port)
		__set_bit(port->id, ports);
	mutex_unlock(&sw->lock);
	pciesw_debugfs_ports_add(dbg, sw, ports);
	pdev->dbg = dbg;
	return 0;
}

/* After the switch is unpublished and its events applied. */
void pciesw_debugfs_del(struct pciesw_dev *pdev)
{
	struct pciesw_debugfs *dbg = pdev->dbg;

	pdev->dbg = NULL;
	debugfs_remove_recursive(dbg->dir);
	kfree(dbg);
}

static ssize_t pciesw_debugfs_fault_delay_write(struct file *file,
						const char __user *ubuf,
						size_t count, loff_t *ppos)
{
	unsigned int ms;
	int ret;

	ret = pciesw_debugfs_perm("fault_delay_ms");
	if (ret)
		return ret;
	ret = kstrtouint_from_user(ubuf, count, 0, &ms);
	if (ret)
		return ret;
	pciesw_mem_set_fault_delay(ms);
	return count;
}

static ssize_t pciesw_debugfs_fault_delay_read(struct file *file,
					       char __user *ubuf, size_t count,
					       loff_t *ppos)
{
	char buf[16];
	int len;

	len = scnprintf(buf, sizeof(buf), "%u\n",
			pciesw_mem_get_fault_delay());
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations pciesw_debugfs_fault_delay_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = pciesw_debugfs_fault_delay_read,
	.write = pciesw_debugfs_fault_delay_write,
};

void pciesw_debugfs_init(void)
{
	pciesw_debugfs_root = debugfs_create_dir("pciesw", NULL);
	debugfs_create_file("fault_delay_ms", 0600, pciesw_debugfs_root, NULL,
			    &pciesw_debugfs_fault_delay_fops);
	pciesw_view_register(PCIESW_VIEW_DEBUGFS, &pciesw_debugfs_view);
}

void pciesw_debugfs_exit(void)
{
	pciesw_view_unregister(PCIESW_VIEW_DEBUGFS);
	debugfs_remove_recursive(pciesw_debugfs_root);
}
