// SPDX-License-Identifier: GPL-2.0
/*
 * Temperatures: the hwmon device "pciesw" of each switch (temp1..temp5 =
 * the five sensors, temp6 = the highest: input, label, max, crit, hysts,
 * alarms) against netlink thermal-get; limits writable by root only, crit
 * never below max; `sensors` (lm-sensors) showing the chip
 * pciesw-isa-<id in hex> with the labels; the thermal model (traffic fed
 * through the debugfs knob warms every sensor by its own heat factor,
 * monotonically, and it cools back to idle when the traffic stops; the
 * ambient moves it); override and its clear; alarms (netlink
 * thermal-alarm-ntf, exactly one per raise or clear, with hysteresis;
 * hwmon temp*_max_alarm / temp*_crit_alarm).
 *
 * Switch ids used here: 70-79.
 */
#include "pciesw_topo.h"

#define ID		70U
#define ID2		71U
#define NSENS		5U
#define HYST		5000
#define MAX_DEF		95000
#define CRIT_DEF	105000
#define AMBIENT_DEF	35000

static const char *const labels[NSENS + 1] = {
	"core", "serdes-host", "serdes-gpu", "serdes-nvme", "dma", "highest",
};
/* documented idle rise above ambient and heat per GB/s, m°C */
static const int idle_rise[NSENS] = { 10000, 8000, 8500, 9000, 7000 };
static const int heat[NSENS] = { 400, 300, 300, 300, 500 };

/* /sys/class/hwmon/hwmonN of switch @id in @dir; 0 or -ENOENT */
static int hwmon_dir(unsigned int id, char *dir, size_t len)
{
	char path[PATH_MAX], real[PATH_MAX], name[64], want[32], *slash;
	struct dirent *de;
	DIR *d;
	int err = -ENOENT;

	d = opendir("/sys/class/hwmon");
	if (!d)
		return -ENOENT;
	snprintf(want, sizeof(want), "pciesw%u", id);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/hwmon/%s/name",
			 de->d_name);
		if (sysfs_read(path, name, sizeof(name)) ||
		    strcmp(name, "pciesw"))
			continue;
		/* its parent (device) is a child of pcieswN */
		snprintf(path, sizeof(path), "/sys/class/hwmon/%s/device",
			 de->d_name);
		if (!realpath(path, real))
			continue;
		slash = strrchr(real, '/');
		if (!slash)
			continue;
		*slash = '\0';
		slash = strrchr(real, '/');
		if (!slash || strcmp(slash + 1, want))
			continue;
		snprintf(dir, len, "/sys/class/hwmon/%.64s", de->d_name);
		err = 0;
		break;
	}
	closedir(d);
	return err;
}

/* A numeric hwmon attribute; LLONG_MIN when unreadable. */
static long long hw_num(const char *dir, const char *attr)
{
	char path[PATH_MAX], buf[64], *end;
	long long v;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	if (sysfs_read(path, buf, sizeof(buf)) || !buf[0])
		return LLONG_MIN;
	errno = 0;
	v = strtoll(buf, &end, 10);
	return errno || *end ? LLONG_MIN : v;
}

static int hw_write(const char *dir, const char *attr, const char *s)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	return sysfs_write(path, s);
}

static int th_get(struct pnl *p, unsigned int id, struct pnl_obj *o)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id), A_END };
	struct pnl_reply r;
	int err = tp_do(p, PCIESW_CMD_THERMAL_GET, req, &r);

	if (!err && r.nobjs != 1)
		err = -EPROTO;
	if (!err)
		*o = r.objs[0];
	pnl_reply_free(&r);
	return err;
}

/* thermal-set of switch @id with @more (A_END-terminated, up to 6). */
static int th_set(struct pnl *p, unsigned int id, const struct pnl_attr *more,
		  struct pnl_reply *r)
{
	struct pnl_attr req[8] = { A_U32(PCIESW_A_SWITCH_ID, id) };
	int i;

	for (i = 0; i < 6 && more[i].type >= 0; i++)
		req[1 + i] = more[i];
	req[1 + i] = (struct pnl_attr)A_END;
	return tp_do(p, PCIESW_CMD_THERMAL_SET, req, r);
}

static int th_set1(struct pnl *p, unsigned int id, const struct pnl_attr *more)
{
	struct pnl_reply r;
	int err = th_set(p, id, more, &r);

	pnl_reply_free(&r);
	return err;
}

/* Temperatures of the five sensors; false if thermal-get failed. */
static bool temps(struct pnl *p, unsigned int id, int t[NSENS], int *highest)
{
	struct pnl_obj *o = malloc(sizeof(*o));
	bool ok = o && !th_get(p, id, o) && o->nr_sensors == NSENS;
	unsigned int i;

	for (i = 0; ok && i < NSENS; i++)
		t[i] = o->sensor[i].temp;
	if (ok && highest)
		*highest = (int32_t)o->u[PCIESW_A_THERMAL_HIGHEST];
	free(o);
	return ok;
}

static unsigned int nr_alarm_ntf(const struct pnl_reply *r, unsigned int id)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->nobjs; i++)
		if (r->objs[i].cmd == PCIESW_CMD_THERMAL_ALARM_NTF &&
		    r->objs[i].u[PCIESW_A_SWITCH_ID] == id)
			n++;
	return n;
}

/* The only thermal-alarm-ntf of @id in @r, NULL unless exactly one. */
static const struct pnl_obj *one_alarm(const struct pnl_reply *r,
				       unsigned int id)
{
	unsigned int i;

	if (nr_alarm_ntf(r, id) != 1)
		return NULL;
	for (i = 0; i < r->nobjs; i++)
		if (r->objs[i].cmd == PCIESW_CMD_THERMAL_ALARM_NTF &&
		    r->objs[i].u[PCIESW_A_SWITCH_ID] == id)
			return &r->objs[i];
	return NULL;
}

static void mon_collect(struct pnl *mon, struct pnl_reply *r)
{
	pnl_reply_init(r);
	pnl_recv_ntf(mon, 250, r);	/* scaled on the debug kernel */
}

/*
 * Wait (bounded, @ms, 5x on the debug kernel) until every sensor is within
 * @tol of @want[i].
 */
static bool wait_temps(struct pnl *p, unsigned int id, const int want[NSENS],
		       int tol, unsigned int ms, int got[NSENS])
{
	struct tp_poll w;
	unsigned int i;
	bool ok;

	tp_poll_start(&w, ms);
	do {
		ok = temps(p, id, got, NULL);
		for (i = 0; ok && i < NSENS; i++)
			ok = abs(got[i] - want[i]) <= tol;
		if (ok)
			return true;
	} while (tp_poll_next(&w));
	return false;
}

static void idle_of(int ambient, int want[NSENS])
{
	unsigned int i;

	for (i = 0; i < NSENS; i++)
		want[i] = ambient + idle_rise[i];
}

FIXTURE(thermal)
{
	struct pnl p, mon;
	char hw[128];
};

FIXTURE_SETUP(thermal)
{
	struct pnl_obj o;
	int err;

	ASSERT_TRUE(pciesw_present())
		TH_LOG("pciesw is not loaded (the runner loads it)");
	ASSERT_EQ(0, pnl_open(&self->p));
	ASSERT_EQ(0, tp_open_monitor(&self->mon));
	if (sw_exists(ID))
		sw_del(ID);
	ASSERT_EQ(0, sw_new(ID, NULL));
	err = th_get(&self->p, ID, &o);
	ASSERT_EQ(0, err) TH_LOG("thermal-get: %s", strerror(abs(err)));
	ASSERT_EQ(0, hwmon_dir(ID, self->hw, sizeof(self->hw)))
		TH_LOG("no hwmon device named pciesw under pciesw%u", ID);
}

FIXTURE_TEARDOWN(thermal)
{
	pnl_close(&self->mon);
	pnl_close(&self->p);
	if (sw_exists(ID))
		sw_del(ID);
	if (sw_exists(ID2))
		sw_del(ID2);
}

/* Defaults, the netlink shape and the hwmon files agree. */
TEST_F(thermal, defaults_and_hwmon)
{
	struct pnl_attr one[] = { A_U32(PCIESW_A_SWITCH_ID, ID), A_END };
	char attr[64], buf[64], path[PATH_MAX];
	struct pnl_reply r;
	struct pnl_obj o;
	struct stat st;
	unsigned int i;
	int highest = INT_MIN;

	ASSERT_EQ(0, th_get(&self->p, ID, &o));
	EXPECT_EQ(0, o.bad_type);
	EXPECT_EQ(0, pnl_not_in_spec(&o, PCIESW_CMD_THERMAL_GET, false));
	EXPECT_EQ(AMBIENT_DEF, (int32_t)o.u[PCIESW_A_THERMAL_AMBIENT]);
	EXPECT_EQ(30000U, o.u[PCIESW_A_THERMAL_TIME_CONSTANT]);
	ASSERT_EQ(NSENS, o.nr_sensors);
	for (i = 0; i < NSENS; i++) {
		const struct pnl_sensor *s = &o.sensor[i];

		EXPECT_TRUE(s->has_id && s->has_label && s->has_temp &&
			    s->has_max && s->has_crit && s->has_hyst &&
			    s->has_max_alarm && s->has_crit_alarm);
		EXPECT_FALSE(s->has_override);
		EXPECT_EQ(i, s->id);
		EXPECT_STREQ(labels[i], s->label);
		EXPECT_EQ(MAX_DEF, s->max);
		EXPECT_EQ(CRIT_DEF, s->crit);
		EXPECT_EQ((uint32_t)HYST, s->hyst);
		EXPECT_EQ(0, s->max_alarm);
		EXPECT_EQ(0, s->crit_alarm);
		/* a new switch is idle */
		EXPECT_LE(abs(s->temp - (AMBIENT_DEF + idle_rise[i])), 50)
			TH_LOG("%s %d", labels[i], s->temp);
		if (s->temp > highest)
			highest = s->temp;
	}
	EXPECT_EQ(highest, (int32_t)o.u[PCIESW_A_THERMAL_HIGHEST]);

	/* hwmon: temp1..5 the sensors, temp6 the highest */
	for (i = 0; i < NSENS + 1; i++) {
		const struct pnl_sensor *s = &o.sensor[i < NSENS ? i : 0];
		static const char *const ro[] = { "input", "label",
						  "max_alarm", "crit_alarm" };
		static const char *const rw[] = { "max", "crit" };
		static const char *const hy[] = { "max_hyst", "crit_hyst" };
		unsigned int k;

		snprintf(attr, sizeof(attr), "temp%u_label", i + 1);
		snprintf(path, sizeof(path), "%s/%s", self->hw, attr);
		ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf))) TH_LOG("%s",
									path);
		EXPECT_STREQ(labels[i], buf);
		for (k = 0; k < 4; k++) {
			snprintf(path, sizeof(path), "%s/temp%u_%s", self->hw,
				 i + 1, ro[k]);
			ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s", path);
			EXPECT_EQ(0444U, st.st_mode & 07777) TH_LOG("%s", path);
		}
		for (k = 0; k < 2; k++) {
			snprintf(path, sizeof(path), "%s/temp%u_%s", self->hw,
				 i + 1, rw[k]);
			if (i == NSENS) {
				/* the highest has no limits of its own */
				EXPECT_NE(0, access(path, F_OK))
					TH_LOG("%s", path);
				continue;
			}
			ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s", path);
			EXPECT_EQ(0644U, st.st_mode & 07777) TH_LOG("%s", path);
			snprintf(path, sizeof(path), "%s/temp%u_%s", self->hw,
				 i + 1, hy[k]);
			ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s", path);
			EXPECT_EQ(0444U, st.st_mode & 07777) TH_LOG("%s", path);
		}
		snprintf(attr, sizeof(attr), "temp%u_input", i + 1);
		if (i == NSENS) {
			EXPECT_EQ(highest, hw_num(self->hw, attr));
		} else {
			EXPECT_LE(llabs(s->temp - hw_num(self->hw, attr)), 50);
		}
		snprintf(attr, sizeof(attr), "temp%u_max_alarm", i + 1);
		EXPECT_EQ(0, hw_num(self->hw, attr));
		snprintf(attr, sizeof(attr), "temp%u_crit_alarm", i + 1);
		EXPECT_EQ(0, hw_num(self->hw, attr));
		if (i == NSENS)
			continue;
		snprintf(attr, sizeof(attr), "temp%u_max", i + 1);
		EXPECT_EQ(MAX_DEF, hw_num(self->hw, attr));
		snprintf(attr, sizeof(attr), "temp%u_crit", i + 1);
		EXPECT_EQ(CRIT_DEF, hw_num(self->hw, attr));
		snprintf(attr, sizeof(attr), "temp%u_max_hyst", i + 1);
		EXPECT_EQ(MAX_DEF - HYST, hw_num(self->hw, attr));
		snprintf(attr, sizeof(attr), "temp%u_crit_hyst", i + 1);
		EXPECT_EQ(CRIT_DEF - HYST, hw_num(self->hw, attr));
	}
	snprintf(path, sizeof(path), "%s/temp7_input", self->hw);
	EXPECT_NE(0, access(path, F_OK));
	/* one object per switch in a dump */
	ASSERT_EQ(0, tp_call(&self->p, PCIESW_CMD_THERMAL_GET, true, one, &r));
	EXPECT_EQ(1U, r.nobjs);
	pnl_reply_free(&r);
}

/* Limits: hwmon (root) and netlink, crit >= max, ranges. */
TEST_F(thermal, limits)
{
	const struct {
		const char *what;
		struct pnl_attr more[4];
		int err;
		const char *msg;
	} bad[] = {
		{ "crit below max", { A_U32(PCIESW_A_SENSOR_ID, 0),
				      A_S32(PCIESW_A_SENSOR_MAX, 100000),
				      A_S32(PCIESW_A_SENSOR_CRIT, 99000),
				      A_END },
		  EINVAL, "crit must not be below max" },
		{ "max above crit", { A_U32(PCIESW_A_SENSOR_ID, 3),
				      A_S32(PCIESW_A_SENSOR_MAX, 106000),
				      A_END },
		  EINVAL, "crit must not be below max" },
		{ "crit below max, all", { A_S32(PCIESW_A_SENSOR_CRIT, 79000),
					   A_END },
		  EINVAL, "crit must not be below max" },
		{ "sensor 5", { A_U32(PCIESW_A_SENSOR_ID, 5),
				A_S32(PCIESW_A_SENSOR_MAX, 90000), A_END },
		  ENOENT, "no such sensor" },
		{ "max 150001", { A_U32(PCIESW_A_SENSOR_ID, 0),
				  A_S32(PCIESW_A_SENSOR_MAX, 150001), A_END },
		  ERANGE, "integer out of range" },
		{ "crit -40001", { A_U32(PCIESW_A_SENSOR_ID, 0),
				   A_S32(PCIESW_A_SENSOR_CRIT, -40001),
				   A_END },
		  ERANGE, "integer out of range" },
		{ "ambient 85001", { A_S32(PCIESW_A_THERMAL_AMBIENT, 85001),
				     A_END },
		  ERANGE, "integer out of range" },
		{ "time constant 99",
		  { A_U32(PCIESW_A_THERMAL_TIME_CONSTANT, 99), A_END },
		  ERANGE, "integer out of range" },
		{ "override 150001",
		  { A_S32(PCIESW_A_SENSOR_OVERRIDE, 150001), A_END },
		  ERANGE, "integer out of range" },
	};
	struct pnl_reply r;
	struct pnl_obj o, before;
	unsigned int i;

	/* hwmon, as root */
	ASSERT_EQ(0, hw_write(self->hw, "temp1_max", "90000\n"));
	ASSERT_EQ(0, th_get(&self->p, ID, &o));
	EXPECT_EQ(90000, o.sensor[0].max);
	EXPECT_EQ(MAX_DEF, o.sensor[1].max);
	EXPECT_EQ(85000, hw_num(self->hw, "temp1_max_hyst"));
	EXPECT_EQ(-EINVAL, hw_write(self->hw, "temp1_crit", "89000\n"));
	EXPECT_EQ(-EINVAL, hw_write(self->hw, "temp2_max", "106000\n"));
	/* out of range: clamped, as hwmon drivers do */
	EXPECT_EQ(0, hw_write(self->hw, "temp5_crit", "200000\n"));
	EXPECT_EQ(150000, hw_num(self->hw, "temp5_crit"));
	ASSERT_EQ(0, hw_write(self->hw, "temp5_crit", "120000\n"));
	EXPECT_EQ(120000, hw_num(self->hw, "temp5_crit"));
	EXPECT_EQ(115000, hw_num(self->hw, "temp5_crit_hyst"));
	/* netlink: one sensor, then all */
	ASSERT_EQ(0, th_set1(&self->p, ID, (struct pnl_attr[]){
				A_U32(PCIESW_A_SENSOR_ID, 2),
				A_S32(PCIESW_A_SENSOR_MAX, 70000),
				A_S32(PCIESW_A_SENSOR_CRIT, 70000), A_END }));
	EXPECT_EQ(70000, hw_num(self->hw, "temp3_max"));
	EXPECT_EQ(70000, hw_num(self->hw, "temp3_crit"));
	ASSERT_EQ(0, th_set1(&self->p, ID, (struct pnl_attr[]){
				A_S32(PCIESW_A_SENSOR_MAX, 80000),
				A_S32(PCIESW_A_SENSOR_CRIT, 100000), A_END }));
	ASSERT_EQ(0, th_get(&self->p, ID, &before));
	for (i = 0; i < NSENS; i++) {
		EXPECT_EQ(80000, before.sensor[i].max);
		EXPECT_EQ(100000, before.sensor[i].crit);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(bad[i].err, th_set(&self->p, ID, bad[i].more, &r))
			TH_LOG("%s", bad[i].what);
		EXPECT_STREQ(bad[i].msg, r.msg) TH_LOG("%s", bad[i].what);
		pnl_reply_free(&r);
		/* nothing changed */
		ASSERT_EQ(0, th_get(&self->p, ID, &o));
		EXPECT_EQ(0, memcmp(before.sensor, o.sensor,
				    sizeof(o.sensor[0]) * NSENS) ? 1 : 0)
			TH_LOG("%s changed a sensor", bad[i].what);
		EXPECT_EQ(AMBIENT_DEF, (int32_t)o.u[PCIESW_A_THERMAL_AMBIENT]);
		EXPECT_EQ(30000U, o.u[PCIESW_A_THERMAL_TIME_CONSTANT]);
	}
	EXPECT_EQ(EINVAL, th_set(&self->p, ID, (struct pnl_attr[]){ A_END },
				 &r));
	EXPECT_STREQ("nothing to set", r.msg);
	pnl_reply_free(&r);
	EXPECT_EQ(ENODEV, th_set(&self->p, ID + 9, (struct pnl_attr[]){
					A_S32(PCIESW_A_THERMAL_AMBIENT, 1),
					A_END }, &r));
	EXPECT_STREQ("no such switch", r.msg);
	pnl_reply_free(&r);
}

/* `sensors` finds both switches' chips, with the labels. */
TEST_F(thermal, sensors_output)
{
	char cmd[128], line[256], chip[2][32];
	unsigned int found[2] = { 0, 0 }, lab[2] = { 0, 0 }, i, k;
	int in = -1;
	FILE *f;

	if (access("/usr/bin/sensors", X_OK))
		SKIP(return, "lm-sensors is not installed");
	ASSERT_EQ(0, sw_new(ID2, "tiny8"));
	snprintf(chip[0], sizeof(chip[0]), "pciesw-isa-%04x", ID);
	snprintf(chip[1], sizeof(chip[1]), "pciesw-isa-%04x", ID2);
	snprintf(cmd, sizeof(cmd), "sensors 2>&1");
	f = popen(cmd, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0]) {
			in = -1;
			continue;
		}
		for (k = 0; k < 2; k++) {
			if (!strcmp(line, chip[k])) {
				found[k]++;
				in = k;
			}
		}
		if (in < 0)
			continue;
		for (i = 0; i < NSENS + 1; i++) {
			size_t l = strlen(labels[i]);

			if (!strncmp(line, labels[i], l) && line[l] == ':' &&
			    strstr(line, "\xc2\xb0" "C"))
				lab[in] |= 1U << i;
		}
	}
	EXPECT_EQ(0, pclose(f));
	for (k = 0; k < 2; k++) {
		EXPECT_EQ(1U, found[k]) TH_LOG("chip %s in sensors' output",
					       chip[k]);
		EXPECT_EQ((1U << (NSENS + 1)) - 1, lab[k])
			TH_LOG("labels of %s: 0x%x", chip[k], lab[k]);
	}
	/* and its reading is the hwmon value: sensors -u prints input */
	snprintf(cmd, sizeof(cmd), "sensors -u %s 2>&1", chip[0]);
	f = popen(cmd, "r");
	ASSERT_NE(NULL, f);
	k = 0;
	while (fgets(line, sizeof(line), f)) {
		double v;

		if (sscanf(line, " temp1_max: %lf", &v) == 1) {
			EXPECT_EQ(MAX_DEF / 1000, (int)v);
			k++;
		}
	}
	pclose(f);
	EXPECT_EQ(1U, k);
}

/*
 * The model: traffic warms every sensor monotonically, by its heat factor;
 * without traffic it cools back to idle.
 */
TEST_F(thermal, model_rise_and_fall)
{
	const int tau = 1000, tol = 150;
	int idle[NSENS], t[NSENS], prev[NSENS], start[NSENS], peak[NSENS];
	int hi, hi2, rise[NSENS];
	long long hw;
	uint64_t end, fed = 0, t0, now, win_t = 0, win_fed = 0;
	unsigned int i, samples = 0, stalled = 0, good = 0;
	double secs, rate, best = 0;

	ASSERT_TRUE(tp_have_feed(ID))
		TH_LOG("no debugfs traffic knob (the module always has it)");
	ASSERT_EQ(0, th_set1(&self->p, ID, (struct pnl_attr[]){
			A_U32(PCIESW_A_THERMAL_TIME_CONSTANT, tau), A_END }));
	idle_of(AMBIENT_DEF, idle);
	ASSERT_TRUE(wait_temps(&self->p, ID, idle, 50, 1000, start));
	memcpy(prev, start, sizeof(prev));

	/*
	 * ~50 GB/s for 2.5 tau.  The model sees the rate of each 250 ms
	 * tick: when this process runs slower (a busy host: every turn of
	 * the loop late, or one long stall), the load really dropped, so the
	 * temperature may too.  So the rate fed over each window between two
	 * readings (~100 ms) is measured: a window is judged only when it
	 * and the two before it (the model's tick spans them, so a shortfall
	 * shows a window late) fed at least 90% of the best rate so far, and
	 * most windows must be fed at that rate.
	 */
	t0 = tp_now_ns();
	end = t0 + 2500ULL * 1000000;
	win_t = t0;
	while (tp_now_ns() < end) {
		ASSERT_EQ(0, tp_feed(ID, 1, "egress", "posted", 1000000000ULL));
		fed += 1000000000ULL;
		tp_msleep(20);	/* paces the feeder: 1 GB per 20 ms */
		if (++samples % 5)
			continue;
		ASSERT_TRUE(temps(&self->p, ID, t, &hi));
		now = tp_now_ns();
		rate = (double)(fed - win_fed) / (now - win_t);
		if (rate > best)
			best = rate;
		if (rate < 0.9 * best) {
			stalled++;
			good = 0;
		} else if (++good >= 3) {
			for (i = 0; i < NSENS; i++) {
				EXPECT_GE(t[i], prev[i] - tol)
					TH_LOG("%s fell from %d to %d while loaded",
					       labels[i], prev[i], t[i]);
			}
		}
		/* judged against the highest since the last slow window */
		for (i = 0; i < NSENS; i++)
			if (good < 3 || t[i] > prev[i])
				prev[i] = t[i];
		win_t = now;
		win_fed = fed;
	}
	EXPECT_LE(stalled, samples / 5 / 2)
		TH_LOG("%u of %u windows with the feeder slowed", stalled,
		       samples / 5);
	secs = (tp_now_ns() - t0) / 1e9;
	ASSERT_TRUE(temps(&self->p, ID, peak, &hi));
	for (i = 0; i < NSENS; i++) {
		/* the target: idle + heat * GB/s; 2.5 tau reach ~92% */
		double target = heat[i] * (fed / 1e9 / secs);

		rise[i] = peak[i] - start[i];
		TH_LOG("%s: %d -> %d m°C (target rise %.0f)", labels[i],
		       start[i], peak[i], target);
		EXPECT_LE(rise[i], (int)(target * 1.1) + tol);
		EXPECT_GE(rise[i], (int)(target * 0.6));
		EXPECT_LE(3000, rise[i]) TH_LOG("%s hardly warmed", labels[i]);
	}
	/* every sensor by its own factor */
	EXPECT_GT(rise[4], rise[0]);
	EXPECT_GT(rise[0], rise[1]);
	EXPECT_LE(abs(rise[1] - rise[2]), rise[1] / 10 + tol);
	EXPECT_LE(abs(rise[1] - rise[3]), rise[1] / 10 + tol);
	EXPECT_EQ(hi, peak[4] > peak[0] ? peak[4] : peak[0]);
	/*
	 * hwmon's temp6 is the same highest: cooling now, so read between
	 * two netlink readings it lies between them (however slow the kernel)
	 */
	hw = hw_num(self->hw, "temp6_input");
	ASSERT_TRUE(temps(&self->p, ID, t, &hi2));
	EXPECT_LE(hw, hi + tol);
	EXPECT_GE(hw, hi2 - tol);

	/* traffic stops: it falls, monotonically, back to idle */
	memcpy(prev, peak, sizeof(prev));
	end = tp_now_ns() + 2000ULL * 1000000;
	while (tp_now_ns() < end) {
		tp_msleep(100);	/* samples the cooling curve every 100 ms */
		ASSERT_TRUE(temps(&self->p, ID, t, NULL));
		for (i = 0; i < NSENS; i++) {
			EXPECT_LE(t[i], prev[i] + tol)
				TH_LOG("%s rose from %d to %d while idle",
				       labels[i], prev[i], t[i]);
			if (t[i] < prev[i])
				prev[i] = t[i];
		}
	}
	for (i = 0; i < NSENS; i++)
		EXPECT_GT(peak[i] - rise[i] / 2, t[i]) TH_LOG("%s", labels[i]);
	EXPECT_TRUE(wait_temps(&self->p, ID, idle, 100, 6000, t));
}

/* The ambient moves every sensor to ambient + idle rise. */
TEST_F(thermal, ambient)
{
	const int ambients[] = { 45000, -40000, 85000, AMBIENT_DEF };
	int want[NSENS], t[NSENS];
	unsigned int k;

	ASSERT_EQ(0, th_set1(&self->p, ID, (struct pnl_attr[]){
			A_U32(PCIESW_A_THERMAL_TIME_CONSTANT, 100), A_END }));
	for (k = 0; k < sizeof(ambients) / sizeof(ambients[0]); k++) {
		struct pnl_obj o;

		ASSERT_EQ(0, th_set1(&self->p, ID, (struct pnl_attr[]){
				A_S32(PCIESW_A_THERMAL_AMBIENT, ambients[k]),
				A_END }));
		ASSERT_EQ(0, th_get(&self->p, ID, &o));
		EXPECT_EQ(ambients[k], (int32_t)o.u[PCIESW_A_THERMAL_AMBIENT]);
		EXPECT_EQ(100U, o.u[PCIESW_A_THERMAL_TIME_CONSTANT]);
		idle_of(ambients[k], want);
		EXPECT_TRUE(wait_temps(&self->p, ID, want, 100, 3000, t))
			TH_LOG("ambient %d: core %d", ambients[k], t[0]);
		EXPECT_LE(llabs(t[0] - hw_num(self->hw, "temp1_input")), 100);
	}
}

/* Override: forces a value (one sensor or all); clear gives it back. */
TEST_F(thermal, override)
{
	int idle[NSENS], t[NSENS], hi;
	struct pnl_obj o;
	unsigned int i;

	idle_of(AMBIENT_DEF, idle);
	ASSERT_EQ(0, th_set1(&self->p, ID, (struct pnl_attr[]){
			A_U32(PCIESW_A_SENSOR_ID, 2),
			A_S32(PCIESW_A_SENSOR_OVERRIDE, 70000), A_END }));
	ASSERT_EQ(0, th_get(&self->p, ID, &o));
	EXPECT_EQ(70000, o.sensor[2].temp);
	EXPECT_TRUE(o.sensor[2].has_override);
	EXPECT_EQ(70000, o.sensor[2].override);
	EXPECT_EQ(70000, (int32_t)o.u[PCIESW_A_THERMAL_HIGHEST]);
	EXPECT_EQ(70000, hw_num(self->hw, "temp3_input"));
	EXPECT_EQ(70000, hw_num(self->hw, "temp6_input"));
	for (i = 0; i < NSENS; i++) {
		if (i == 2)
			continue;
		EXPECT_FALSE(o.sensor[i].has_override);
		EXPECT_LE(abs(o.sensor[i].temp - idle[i]), 50);
	}
	/* below zero works too */
	ASSERT_EQ(0, th_set1(&self->p, ID, (struct pnl_attr[]){
			A_U32(PCIESW_A_SENSOR_ID, 0),
			A_S32(PCIESW_A_SENSOR_OVERRIDE, -12500), A_END }));
	EXPECT_EQ(-12500, hw_num(self->hw, "temp1_input"));
	/* clear one */
	ASSERT_EQ(0, th_set1(&self->p, ID, (struct pnl_attr[]){
			A_U32(PCIESW_A_SENSOR_ID, 2),
			A_FLAG(PCIESW_A_SENSOR_OVERRIDE_CLEAR), A_END }));
	ASSERT_TRUE(temps(&self->p, ID, t, &hi));
	EXPECT_LE(abs(t[2] - idle[2]), 50);
	EXPECT_EQ(-12500, t[0]);
	/* all of them, then clear all */
	ASSERT_EQ(0, th_set1(&self->p, ID, (struct pnl_attr[]){
			A_S32(PCIESW_A_SENSOR_OVERRIDE, 60000), A_END }));
	ASSERT_TRUE(temps(&self->p, ID, t, &hi));
	for (i = 0; i < NSENS; i++)
		EXPECT_EQ(60000, t[i]);
	EXPECT_EQ(60000, hi);
	ASSERT_EQ(0, th_set1(&self->p, ID, (struct pnl_attr[]){
			A_FLAG(PCIESW_A_SENSOR_OVERRIDE_CLEAR), A_END }));
	ASSERT_EQ(0, th_get(&self->p, ID, &o));
	for (i = 0; i < NSENS; i++) {
		EXPECT_FALSE(o.sensor[i].has_override);
		EXPECT_LE(abs(o.sensor[i].temp - idle[i]), 50) TH_LOG("%u", i);
	}
}

/* thermal-alarm-ntf: the spec's event attributes */
static const int alarm_ntf_attrs[] = {
	PCIESW_A_SWITCH_ID, PCIESW_A_SENSOR_ID, PCIESW_A_SENSOR_TEMP,
	PCIESW_A_ALARM_LEVEL, PCIESW_A_ALARM_ACTIVE, 0
};

/* Alarms: one notification per raise and per clear, with hysteresis. */
TEST_F(thermal, alarms)
{
	const struct pnl_obj *a;
	struct pnl_reply ntf;
	struct pnl_obj o;
	unsigned int i, warn, crit;

	pnl_reply_init(&ntf);
	pnl_recv_ntf(&self->mon, 50, &ntf);
	pnl_reply_free(&ntf);

	/* max reached */
	ASSERT_EQ(0, th_set1(&self->p, ID, (struct pnl_attr[]){
			A_U32(PCIESW_A_SENSOR_ID, 1),
			A_S32(PCIESW_A_SENSOR_OVERRIDE, MAX_DEF), A_END }));
	mon_collect(&self->mon, &ntf);
	a = one_alarm(&ntf, ID);
	ASSERT_NE(NULL, a) TH_LOG("%u alarm notifications",
				  nr_alarm_ntf(&ntf, ID));
	EXPECT_EQ(0, pnl_not_in(a, alarm_ntf_attrs));
	EXPECT_EQ(0, pnl_missing(a, alarm_ntf_attrs));
	EXPECT_EQ(1U, a->u[PCIESW_A_SENSOR_ID]);
	EXPECT_EQ((uint32_t)PCIESW_ALARM_WARNING, a->u[PCIESW_A_ALARM_LEVEL]);
	EXPECT_EQ(1U, a->u[PCIESW_A_ALARM_ACTIVE]);
	EXPECT_EQ(MAX_DEF, (int32_t)a->u[PCIESW_A_SENSOR_TEMP]);
	pnl_reply_free(&ntf);
	ASSERT_EQ(0, th_get(&self->p, ID, &o));
	EXPECT_EQ(1, o.sensor[1].max_alarm);
	EXPECT_EQ(0, o.sensor[1].crit_alarm);
	EXPECT_EQ(0, o.sensor[0].max_alarm);
	EXPECT_EQ(1, hw_num(self->hw, "temp2_max_alarm"));
	EXPECT_EQ(0, hw_num(self->hw, "temp2_crit_alarm"));
	EXPECT_EQ(0, hw_num(self->hw, "temp1_max_alarm"));
	EXPECT_EQ(1, hw_num(self->hw, "temp6_max_alarm"));

	/* within the hysteresis: still on, nothing sent */
	for (i = 0; i < 2; i++) {
		int v = i ? MAX_DEF - HYST : MAX_DEF - 1;

		ASSERT_EQ(0, th_set1(&self->p, ID, (struct pnl_attr[]){
				A_U32(PCIESW_A_SENSOR_ID, 1),
				A_S32(PCIESW_A_SENSOR_OVERRIDE, v), A_END }));
		mon_collect(&self->mon, &ntf);
		EXPECT_EQ(0U, nr_alarm_ntf(&ntf, ID)) TH_LOG("at %d", v);
		pnl_reply_free(&ntf);
		EXPECT_EQ(1, hw_num(self->hw, "temp2_max_alarm"));
	}
	/* below limit - hyst: cleared */
	ASSERT_EQ(0, th_set1(&self->p, ID, (struct pnl_attr[]){
			A_U32(PCIESW_A_SENSOR_ID, 1),
			A_S32(PCIESW_A_SENSOR_OVERRIDE, MAX_DEF - HYST - 1),
			A_END }));
	mon_collect(&self->mon, &ntf);
	a = one_alarm(&ntf, ID);
	ASSERT_NE(NULL, a);
	EXPECT_EQ((uint32_t)PCIESW_ALARM_WARNING, a->u[PCIESW_A_ALARM_LEVEL]);
	EXPECT_EQ(0U, a->u[PCIESW_A_ALARM_ACTIVE]);
	EXPECT_EQ(MAX_DEF - HYST - 1, (int32_t)a->u[PCIESW_A_SENSOR_TEMP]);
	pnl_reply_free(&ntf);
	EXPECT_EQ(0, hw_num(self->hw, "temp2_max_alarm"));
	EXPECT_EQ(0, hw_num(self->hw, "temp6_max_alarm"));

	/* crit: both levels, one notification each */
	ASSERT_EQ(0, th_set1(&self->p, ID, (struct pnl_attr[]){
			A_U32(PCIESW_A_SENSOR_ID, 4),
			A_S32(PCIESW_A_SENSOR_OVERRIDE, CRIT_DEF), A_END }));
	mon_collect(&self->mon, &ntf);
	EXPECT_EQ(2U, nr_alarm_ntf(&ntf, ID));
	for (i = 0, warn = crit = 0; i < ntf.nobjs; i++) {
		a = &ntf.objs[i];
		if (a->cmd != PCIESW_CMD_THERMAL_ALARM_NTF)
			continue;
		EXPECT_EQ(4U, a->u[PCIESW_A_SENSOR_ID]);
		EXPECT_EQ(1U, a->u[PCIESW_A_ALARM_ACTIVE]);
		warn += a->u[PCIESW_A_ALARM_LEVEL] == PCIESW_ALARM_WARNING;
		crit += a->u[PCIESW_A_ALARM_LEVEL] == PCIESW_ALARM_CRITICAL;
	}
	EXPECT_EQ(1U, warn);
	EXPECT_EQ(1U, crit);
	pnl_reply_free(&ntf);
	EXPECT_EQ(1, hw_num(self->hw, "temp5_crit_alarm"));
	EXPECT_EQ(1, hw_num(self->hw, "temp6_crit_alarm"));
	/* back to the model: both clear */
	ASSERT_EQ(0, th_set1(&self->p, ID, (struct pnl_attr[]){
			A_FLAG(PCIESW_A_SENSOR_OVERRIDE_CLEAR), A_END }));
	mon_collect(&self->mon, &ntf);
	EXPECT_EQ(2U, nr_alarm_ntf(&ntf, ID));
	for (i = 0; i < ntf.nobjs; i++)
		if (ntf.objs[i].cmd == PCIESW_CMD_THERMAL_ALARM_NTF)
			EXPECT_EQ(0U, ntf.objs[i].u[PCIESW_A_ALARM_ACTIVE]);
	pnl_reply_free(&ntf);
	EXPECT_EQ(0, hw_num(self->hw, "temp5_crit_alarm"));
	EXPECT_EQ(0, hw_num(self->hw, "temp6_crit_alarm"));

	/* a limit lowered below the temperature raises it too */
	ASSERT_EQ(0, th_set1(&self->p, ID, (struct pnl_attr[]){
			A_S32(PCIESW_A_SENSOR_MAX, 40000), A_END }));
	mon_collect(&self->mon, &ntf);
	EXPECT_EQ(NSENS, nr_alarm_ntf(&ntf, ID));
	pnl_reply_free(&ntf);
	for (i = 0; i < NSENS; i++) {
		char attr[32];

		snprintf(attr, sizeof(attr), "temp%u_max_alarm", i + 1);
		EXPECT_EQ(1, hw_num(self->hw, attr));
	}
	ASSERT_EQ(0, hw_write(self->hw, "temp1_max", "95000\n"));
	mon_collect(&self->mon, &ntf);
	a = one_alarm(&ntf, ID);
	ASSERT_NE(NULL, a);
	EXPECT_EQ(0U, a->u[PCIESW_A_SENSOR_ID]);
	EXPECT_EQ(0U, a->u[PCIESW_A_ALARM_ACTIVE]);
	pnl_reply_free(&ntf);
}

static void nobody_thermal(struct __test_metadata *_metadata,
			   FIXTURE_DATA(thermal) *self)
{
	struct pnl_reply r;
	struct pnl_obj o;
	struct pnl p;

	EXPECT_EQ(MAX_DEF, hw_num(self->hw, "temp1_max"));
	EXPECT_LT(0, hw_num(self->hw, "temp1_input"));
	EXPECT_EQ(-EACCES, hw_write(self->hw, "temp1_max", "90000\n"));
	EXPECT_EQ(-EACCES, hw_write(self->hw, "temp1_crit", "110000\n"));
	EXPECT_EQ(0, pnl_open(&p));
	if (!p.sk)
		return;
	EXPECT_EQ(0, th_get(&p, ID, &o));
	EXPECT_EQ(EPERM, th_set(&p, ID, (struct pnl_attr[]){
				A_S32(PCIESW_A_SENSOR_MAX, 90000), A_END },
				&r));
	pnl_reply_free(&r);
	pnl_close(&p);
}

TEST_F(thermal, unprivileged)
{
	if (geteuid() != 0)
		SKIP(return, "must start as root to drop to nobody");
	PCIESW_AS_NOBODY(nobody_thermal, self);
	EXPECT_EQ(MAX_DEF, hw_num(self->hw, "temp1_max"));
	EXPECT_EQ(CRIT_DEF, hw_num(self->hw, "temp1_crit"));
}

TEST_HARNESS_MAIN
