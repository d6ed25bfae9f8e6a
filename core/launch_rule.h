/*
 * launch_rule.h: how a variant says it needs another launch configuration.
 * A variant made for a grid F times as tall (gridDim.y multiplied by F; the
 * original's grids one-dimensional along y and z) starts with the line
 *
 *     / * cl1cc-launch: grid.y x32 * /        (without the inner blanks)
 *
 * The judge replays it on such grids, the tuning database records the rule
 * in launch_edits ({"grid_y": F}), and the nvcc wrapper launches a copy of
 * it under another name on such grids (driver/splice_launch.c).
 */
#ifndef CL1_LAUNCH_RULE_H
#define CL1_LAUNCH_RULE_H

#define CL1_GRID_Y_MARKER "/* cl1cc-launch: grid.y x"

/* F of the variant's first line, or 1 when it has none (or a bad one) */
int launch_rule_grid_y(const char *source);

enum { LAUNCH_RULE_EDITS_MAX = 32 };
/* the tuning database's launch_edits for it, "[{"grid_y": F}]" written
 * into buf, or NULL when it needs none */
const char *launch_rule_edits(const char *source, char buf[LAUNCH_RULE_EDITS_MAX]);
/* F of launch_edits "[{"grid_y": F}]", 1 for none (NULL, "[]", "null"), 0
 * for anything else (edits the caller does not know how to apply) */
int launch_rule_edits_grid_y(const char *launch_edits);

#endif
