/*
 * viz_camera.c - the orbit camera: yaw about the world y axis, then pitch
 * about the camera's x axis, at a distance from a target point. Mouse
 * deltas are in pixels, so that a drag across the window turns the view by
 * about half a turn whatever the window size.
 */
#include "viz.h"

#include <math.h>

#define VIZ_PI 3.14159265358979323846

void viz_camera_fit(viz_camera *c, const double box[3])
{
	double big = box[0];

	if (box[1] > big)
		big = box[1];
	if (box[2] > big)
		big = box[2];
	c->yaw = 35.0 * VIZ_PI / 180.0;
	c->pitch = 22.0 * VIZ_PI / 180.0;
	c->fov = 45.0 * VIZ_PI / 180.0;
	/* the box diagonal fills about 90% of the window height */
	c->dist = 1.05 * sqrt(3.0) * big / (2.0 * tan(0.5 * c->fov));
	c->target[0] = 0.5 * box[0];
	c->target[1] = 0.5 * box[1];
	c->target[2] = 0.5 * box[2];
}

void viz_camera_rotate(viz_camera *c, double dx, double dy)
{
	double lim = 89.0 * VIZ_PI / 180.0;

	c->yaw -= dx * 0.008;
	c->pitch += dy * 0.008;
	if (c->pitch > lim)
		c->pitch = lim;
	if (c->pitch < -lim)
		c->pitch = -lim;
	c->yaw = fmod(c->yaw, 2.0 * VIZ_PI);
}

void viz_camera_pan(viz_camera *c, double dx, double dy, int height)
{
	/* move the target in the view plane so the point under the mouse
	 * follows it (at the target's depth) */
	double cy = cos(c->yaw), sy = sin(c->yaw);
	double cp = cos(c->pitch), sp = sin(c->pitch);
	double right[3] = { cy, 0.0, -sy };
	double up[3] = { -sp * sy, cp, -sp * cy };
	double s = 2.0 * c->dist * tan(0.5 * c->fov) / (height > 0 ? height : 1);
	int d;

	for (d = 0; d < 3; d++)
		c->target[d] += s * (-dx * right[d] + dy * up[d]);
}

void viz_camera_zoom(viz_camera *c, double clicks)
{
	c->dist *= pow(0.9, clicks);
	if (c->dist < 1.0)
		c->dist = 1.0;
	if (c->dist > 1e6)
		c->dist = 1e6;
}
