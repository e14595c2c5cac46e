// An LD_PRELOAD counter of memcpy / memmove / memset calls and bytes (and calls by size, from
// 4 KiB up), printed to stderr at exit. Used by per_step.sh; see BENCHMARKS.md, issue 17 item 2.

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
static uint64_t cpy_n, cpy_b, mov_n, mov_b, set_n, set_b;
static uint64_t big_cpy[64], big_set[64]; // histogram by log2 size
static void *(*r_memcpy)(void *, const void *, size_t);
static void *(*r_memmove)(void *, const void *, size_t);
static void *(*r_memset)(void *, int, size_t);
static int lg(size_t n){int l=0;while(n>1){n>>=1;l++;}return l;}
void *memcpy(void *d, const void *s, size_t n) {
  if (!r_memcpy) r_memcpy = dlsym(RTLD_NEXT, "memcpy");
  __atomic_add_fetch(&cpy_n, 1, __ATOMIC_RELAXED); __atomic_add_fetch(&cpy_b, n, __ATOMIC_RELAXED);
  __atomic_add_fetch(&big_cpy[lg(n)], 1, __ATOMIC_RELAXED);
  return r_memcpy(d, s, n);
}
void *memmove(void *d, const void *s, size_t n) {
  if (!r_memmove) r_memmove = dlsym(RTLD_NEXT, "memmove");
  __atomic_add_fetch(&mov_n, 1, __ATOMIC_RELAXED); __atomic_add_fetch(&mov_b, n, __ATOMIC_RELAXED);
  __atomic_add_fetch(&big_cpy[lg(n)], 1, __ATOMIC_RELAXED);
  return r_memmove(d, s, n);
}
void *memset(void *d, int c, size_t n) {
  if (!r_memset) r_memset = dlsym(RTLD_NEXT, "memset");
  __atomic_add_fetch(&set_n, 1, __ATOMIC_RELAXED); __atomic_add_fetch(&set_b, n, __ATOMIC_RELAXED);
  __atomic_add_fetch(&big_set[lg(n)], 1, __ATOMIC_RELAXED);
  return r_memset(d, c, n);
}
__attribute__((destructor)) static void report(void) {
  char buf[4096]; int k = 0;
  k += snprintf(buf+k, sizeof buf-k, "copycount: memcpy %lu calls %lu bytes; memmove %lu calls %lu bytes; memset %lu calls %lu bytes\n",
    cpy_n, cpy_b, mov_n, mov_b, set_n, set_b);
  for (int i = 12; i < 40; i++) if (big_cpy[i] || big_set[i])
    k += snprintf(buf+k, sizeof buf-k, "copycount: size 2^%d: copies %lu sets %lu\n", i, big_cpy[i], big_set[i]);
  fputs(buf, stderr);
}
