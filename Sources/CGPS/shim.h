// The few things Trailbook needs from libgps (gpsd's client library, API 11+), copied out of
// gps_data_t into a flat struct so that no libgps type reaches Swift code outside GPSDSource.
#ifndef TRAILBOOK_CGPS_SHIM_H
#define TRAILBOOK_CGPS_SHIM_H

#include <gps.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/// One report from gpsd, flattened. Doubles are NaN when gpsd does not know them.
typedef struct {
    bool is_position;   // a TPV report (mode and time set)
    bool is_sky;        // a SKY report (satellites and DOPs)
    int mode;           // 0 unknown, 1 no fix, 2 2D, 3 3D
    bool has_time;
    long long time_sec; // UTC, seconds since 1970
    long time_nsec;
    double latitude, longitude;   // degrees, WGS-84
    double alt_msl, geoid_sep;    // metres
    double speed, track;          // m/s, degrees true
    double epx, epy, epv;         // 1-sigma-ish error estimates, metres
    double hdop, vdop, pdop;
    int satellites_used, satellites_visible;
} tb_gps_report;

/// Allocates the gpsd session state (gps_data_t is large; Swift never looks inside it).
static inline struct gps_data_t *tb_gps_new(void) { return calloc(1, sizeof(struct gps_data_t)); }

static inline void tb_gps_free(struct gps_data_t *data) { free(data); }

/// Asks gpsd for JSON reports of every device.
static inline int tb_gps_watch(struct gps_data_t *data) {
    return gps_stream(data, WATCH_ENABLE | WATCH_JSON, NULL);
}

/// Copies the last report read by gps_read into `out`.
static inline void tb_gps_report_fill(const struct gps_data_t *d, tb_gps_report *out) {
    out->is_position = (d->set & MODE_SET) != 0 && (d->set & TIME_SET) != 0;
    out->is_sky = (d->set & SATELLITE_SET) != 0;
    out->mode = d->fix.mode;
    out->has_time = (d->set & TIME_SET) != 0 && d->fix.time.tv_sec > 0;
    out->time_sec = (long long)d->fix.time.tv_sec;
    out->time_nsec = d->fix.time.tv_nsec;
    out->latitude = d->fix.latitude;
    out->longitude = d->fix.longitude;
    out->alt_msl = d->fix.altMSL;
    out->geoid_sep = d->fix.geoid_sep;
    out->speed = d->fix.speed;
    out->track = d->fix.track;
    out->epx = d->fix.epx;
    out->epy = d->fix.epy;
    out->epv = d->fix.epv;
    out->hdop = d->dop.hdop;
    out->vdop = d->dop.vdop;
    out->pdop = d->dop.pdop;
    out->satellites_used = d->satellites_used;
    out->satellites_visible = d->satellites_visible;
}

/// Number of devices in the last DEVICES report, or -1 when the last report was not one.
static inline int tb_gps_device_count(const struct gps_data_t *d) {
    return (d->set & DEVICELIST_SET) ? d->devices.ndevices : -1;
}

/// Path of device `i` of the last DEVICES report.
static inline const char *tb_gps_device_path(const struct gps_data_t *d, int i) {
    return d->devices.list[i].path;
}

/// Path of the device in the last DEVICE report (a device activated later), or NULL.
static inline const char *tb_gps_device_event_path(const struct gps_data_t *d) {
    return (d->set & DEVICE_SET) ? d->dev.path : NULL;
}

#endif
