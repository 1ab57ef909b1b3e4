/*
 * The daemon's answers as people read them (cuzk status, wait, submit
 * without --json): a few aligned lines a section, sizes in binary units,
 * durations in seconds. The JSON stays the interface for programs
 * (--json); nothing here is meant to be parsed.
 */
#ifndef CUZK_CLI_CLIENT_SHOW_H
#define CUZK_CLI_CLIENT_SHOW_H

#include <stdio.h>

#include <jansson.h>

/* GET /v1/status's answer: server, queue, devices, memory, keys, counters. */
void client_show_status(FILE *f, json_t *status);

/* GET /v1/proofs/ID's answer: state, key, priority, partitions done,
 * times and per-stage timings, the error of a failed job. */
void client_show_job(FILE *f, json_t *job);

/* One line for an ended job: "ID STATE (N partitions, T s)". */
void client_show_job_line(FILE *f, json_t *job);

#endif
