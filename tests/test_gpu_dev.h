/*
 * The GPU engine tests' device (test_engine_gpu.c, test_engine_gpu_setup.c):
 * device 0 opened once for the program by gpu_dev_setup, NULL when there is
 * no GPU; REQUIRE_GPU() then skips the test, saying why. Included once, by
 * a test program built with CUDA, after cmocka.h.
 */
#ifndef CUZK_TESTS_TEST_GPU_DEV_H
#define CUZK_TESTS_TEST_GPU_DEV_H

#include "cuda/gpu.h"
#include "engine/engine_gpu.h"
#include "io/io_error.h"

static engine_gpu_dev_t *dev;
static char why[IO_ERR_MAX];

#define REQUIRE_GPU()                                                                              \
    do {                                                                                           \
        if (!dev) {                                                                                \
            print_message("no GPU (%s): skipped\n", why);                                          \
            skip();                                                                                \
        }                                                                                          \
    } while (0)

static int gpu_dev_setup(void **state)
{
    (void)state;
    int n = 0;
    if (gpu_count(&n, why, sizeof why) != CUZK_OK)
        return -1;
    if (n == 0)
        return 0;
    return engine_gpu_dev_new(&dev, 0, why, sizeof why) == CUZK_OK ? 0 : -1;
}

static int gpu_dev_teardown(void **state)
{
    (void)state;
    engine_gpu_dev_free(dev);
    return 0;
}

#endif
