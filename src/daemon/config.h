/*
 * cuzkd's configuration: one table of options (config.c), each with its
 * INI section and key, its command-line flag, its type, range, default and
 * help line. The same table reads the file (libinih), the command line,
 * prints the effective configuration and the usage text, so an option
 * exists in all four places or in none.
 *
 * Precedence: defaults < the file named by --config < command-line flags.
 *
 *   [server]  listen, token_file (or token, in the file only), max_body,
 *             max_connections, max_client_connections, header_timeout, max_wait,
 *             log_level, log_format
 *   [engine]  threads, workers, urgent_workers, devices, residency, device_key_budget,
 *             pinned_limit, device_work_limit, host_memory_budget, max_jobs,
 *             keep_jobs, timeline_events, trusted_keys
 *   [paths]   allow, journal
 *   [fleet]   database, host_name, lease_seconds, lookahead, max_attempts
 *   [preload] NAME = FORMAT:PATH   (one line per key loaded at start)
 */
#ifndef CUZK_DAEMON_CONFIG_H
#define CUZK_DAEMON_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { CONFIG_ERR_MAX = 768, CONFIG_MAX_PRELOAD = 64 };

typedef struct config_preload {
    char *name, *format, *path;
} config_preload_t;

typedef struct cuzkd_config {
    /* [server] */
    char *listen;     /* HOST:PORT (port 0: any free one) or unix:PATH */
    char *token_file; /* a file holding the bearer token ("": no token) */
    char *token;      /* [server] token or token_file's first line (config_finish);
                         NULL: none; never printed */
    uint64_t max_body;
    unsigned max_connections;
    unsigned max_client_connections; /* from one client host (0: no limit) */
    double header_timeout;           /* seconds to send a request header (0: none) */
    double max_wait;                 /* the longest ?wait= honoured, seconds */
    char *log_level;                 /* error, warn, info or debug (log.h) */
    char *log_format;                /* text or json */
    /* [engine] */
    unsigned threads; /* 0: one per processor */
    unsigned workers; /* per device (0: 2 a GPU, 1 on the CPU); the CPU counts as one device */
    unsigned urgent_workers;    /* per GPU, taking critical partitions only; none on the CPU */
    char *devices;              /* auto, cpu, cuda or a number of GPUs */
    char *residency;            /* auto, device, pinned or mapped: the GPUs' key tier */
    uint64_t device_key_budget; /* bytes of each GPU a key may take (0: free less working set) */
    uint64_t pinned_limit;      /* the pinned staging pool (0: no limit) */
    uint64_t device_work_limit; /* the partitions' device buffers, each GPU (0: its free memory) */
    uint64_t host_memory_budget;
    unsigned max_jobs;
    unsigned keep_jobs;
    unsigned timeline_events;
    bool trusted_keys;
    /* [paths] */
    char *allow;   /* comma-separated directories for key and witness paths */
    char *journal; /* directory ("": no journal, nothing survives a restart) */
    /* [fleet] (docs/FLEET.md) */
    char *database;        /* a postgresql:// URI or libpq words ("": no fleet) */
    char *host_name;       /* this host's name in the fleet ("": HOSTNAME:PORT) */
    double lease_seconds;  /* a lease's expiry; the heartbeat renews it a third of the way */
    unsigned lookahead;    /* partitions leased beyond what the workers can start now */
    unsigned max_attempts; /* leases of one partition before it fails */
    /* [preload] */
    config_preload_t preload[CONFIG_MAX_PRELOAD];
    size_t n_preload;
    /* not options */
    char *config_path;
    bool check_only;
} cuzkd_config_t;

/*
 * Fills cfg from the defaults, the file given by --config FILE and the
 * other flags of argv (argv[0] is the program). Returns 0; 1 for -h or
 * --help, 2 for --version (the caller prints and exits 0); -1 with a message in err for
 * a bad flag, an unreadable file ("FILE:LINE: ..." for a bad line) or a
 * value out of range.
 */
int config_load(cuzkd_config_t *cfg, int argc, char **argv, char *err, size_t err_size);

/* Reads the token file, if any. -1 with a message. */
int config_finish(cuzkd_config_t *cfg, char *err, size_t err_size);

/* Writes the effective configuration as an INI file (the token and the
 * database's password omitted). */
void config_print(const cuzkd_config_t *cfg, FILE *f);

/* The usage text: synopsis and one line per flag. */
void config_usage(FILE *f);

void config_free(cuzkd_config_t *cfg);

/* Parses "123", "64K", "2M", "16G", "1T" (powers of 1024). -1 when bad. */
int config_parse_bytes(const char *s, uint64_t *out);

#endif
