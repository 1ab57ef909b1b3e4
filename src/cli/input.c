/*
 * Input files for the public API's readers, which take bytes and a name
 * for messages: the file is mapped (io/io_map.h: a FIFO refused, a file
 * that shrinks while it is read told apart from a corrupt one), handed
 * over with its path as the name, and unmapped.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "io/io_error.h"

cuzk_status_t cli_input_map(io_map_t *m, const void **data, const char *path, char *err,
                            size_t err_size)
{
    cuzk_status_t s = io_map_open(m, path, err, err_size);
    /* an empty file maps to NULL, which the readers refuse as an argument */
    *data = m->data ? (const void *)m->data : "";
    return s;
}

cuzk_status_t cli_input_unmap(io_map_t *m, cuzk_status_t s, const char *path, char *err,
                              size_t err_size)
{
    if (s != CUZK_OK)
        snprintf(err, err_size, "%s", cuzk_last_error());
    s = io_map_check(m, s, path, err, err_size);
    io_map_close(m);
    return s;
}
