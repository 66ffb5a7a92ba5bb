// libccl4j.so loads on glibc 2.28 and newer, whatever glibc builds it.
//
// The linker binds each reference to glibc to the symbol's newest version in the glibc it links
// against: pthread_create@GLIBC_2.34 on a current system, which glibc 2.28 lacks, so the library
// would not load there. For every symbol whose newest version is newer than 2.28, the link renames
// the references to SYMBOL, in our objects and in the static archives alike (libstdc++, the CUDA
// runtime), into __wrap_SYMBOL (ld --wrap), and this file defines __wrap_SYMBOL on top of the version
// that glibc 2.28 already had and that newer glibc keeps for old binaries.
//
// native/CMakeLists.txt reads the symbol names from the FORWARD and REPLACE lines below: a symbol
// added here is wrapped, nothing else to edit. The build's ELF audit (the consumer test
// NativeLibraryPortabilityTest) fails when a newer version need appears.
//
// x86_64 only: GLIBC_2.2.5 is the first glibc version of that architecture.

#include <sys/stat.h>

// FORWARD(SYMBOL, VERSION): __wrap_SYMBOL jumps to SYMBOL@VERSION, arguments untouched (so the
// prototype does not matter). Each of these functions was moved into libc.so.6 in glibc 2.34
// (from libpthread, libdl or librt, which the library lists as needed so that glibc 2.28 finds them
// there) or got a new implementation under a new version (exp in 2.29).
#define FORWARD(symbol, version)                                                            \
    __asm__(".symver glibc_old_" #symbol ", " #symbol "@" #version "\n"                     \
            "\t.text\n"                                                                     \
            "\t.globl __wrap_" #symbol "\n"                                                 \
            "\t.hidden __wrap_" #symbol "\n"                                                \
            "\t.type __wrap_" #symbol ", @function\n"                                       \
            "__wrap_" #symbol ":\n"                                                         \
            "\tjmp glibc_old_" #symbol "@PLT\n"                                             \
            "\t.size __wrap_" #symbol ", . - __wrap_" #symbol "\n");

FORWARD(pthread_create, GLIBC_2.2.5)
FORWARD(pthread_detach, GLIBC_2.2.5)
FORWARD(pthread_join, GLIBC_2.2.5)
FORWARD(pthread_kill, GLIBC_2.2.5)
FORWARD(pthread_once, GLIBC_2.2.5)
FORWARD(pthread_key_create, GLIBC_2.2.5)
FORWARD(__pthread_key_create, GLIBC_2.2.5)
FORWARD(pthread_key_delete, GLIBC_2.2.5)
FORWARD(pthread_getspecific, GLIBC_2.2.5)
FORWARD(pthread_setspecific, GLIBC_2.2.5)
FORWARD(pthread_mutex_trylock, GLIBC_2.2.5)
FORWARD(pthread_mutexattr_init, GLIBC_2.2.5)
FORWARD(pthread_mutexattr_destroy, GLIBC_2.2.5)
FORWARD(pthread_mutexattr_setpshared, GLIBC_2.2.5)
FORWARD(pthread_mutexattr_settype, GLIBC_2.2.5)
FORWARD(pthread_condattr_setpshared, GLIBC_2.2.5)
FORWARD(pthread_rwlock_init, GLIBC_2.2.5)
FORWARD(pthread_rwlock_destroy, GLIBC_2.2.5)
FORWARD(pthread_rwlock_rdlock, GLIBC_2.2.5)
FORWARD(pthread_rwlock_tryrdlock, GLIBC_2.2.5)
FORWARD(pthread_rwlock_timedrdlock, GLIBC_2.2.5)
FORWARD(pthread_rwlock_wrlock, GLIBC_2.2.5)
FORWARD(pthread_rwlock_trywrlock, GLIBC_2.2.5)
FORWARD(pthread_rwlock_timedwrlock, GLIBC_2.2.5)
FORWARD(pthread_rwlock_unlock, GLIBC_2.2.5)
FORWARD(pthread_rwlockattr_init, GLIBC_2.2.5)
FORWARD(pthread_rwlockattr_destroy, GLIBC_2.2.5)
FORWARD(pthread_rwlockattr_setpshared, GLIBC_2.2.5)
FORWARD(pthread_spin_init, GLIBC_2.2.5)
FORWARD(pthread_spin_destroy, GLIBC_2.2.5)
FORWARD(pthread_spin_lock, GLIBC_2.2.5)
FORWARD(pthread_spin_trylock, GLIBC_2.2.5)
FORWARD(pthread_spin_unlock, GLIBC_2.2.5)
FORWARD(sem_init, GLIBC_2.2.5)
FORWARD(sem_destroy, GLIBC_2.2.5)
FORWARD(sem_post, GLIBC_2.2.5)
FORWARD(sem_wait, GLIBC_2.2.5)
FORWARD(sem_trywait, GLIBC_2.2.5)
FORWARD(sem_timedwait, GLIBC_2.2.5)
FORWARD(shm_open, GLIBC_2.2.5)
FORWARD(shm_unlink, GLIBC_2.2.5)
FORWARD(dlopen, GLIBC_2.2.5)
FORWARD(dlmopen, GLIBC_2.3.4)
FORWARD(dlclose, GLIBC_2.2.5)
FORWARD(dlsym, GLIBC_2.2.5)
FORWARD(dlvsym, GLIBC_2.2.5)
FORWARD(dlerror, GLIBC_2.2.5)
FORWARD(exp, GLIBC_2.2.5)

// REPLACE(SYMBOL): __wrap_SYMBOL is written out below, for what glibc 2.28 had in another form.
#define REPLACE(symbol)

// Before 2.33, fstat64 was an inline function of the headers over __fxstat64 (version 1 of
// struct stat on x86_64); libstdc++'s file buffers call it.
REPLACE(fstat64)
extern "C" int glibc_old___fxstat64(int version, int fd, struct stat64* buffer);
__asm__(".symver glibc_old___fxstat64, __fxstat64@GLIBC_2.2.5");
extern "C" __attribute__((visibility("hidden"))) int __wrap_fstat64(int fd, struct stat64* buffer) {
    return glibc_old___fxstat64(1, fd, buffer);
}

// glibc 2.32 tells libstdc++ through this flag that the process has one thread, so that reference
// counts may skip atomic instructions. Zero, "maybe several threads", is always correct.
REPLACE(__libc_single_threaded)
extern "C" {
__attribute__((visibility("hidden"))) char __wrap___libc_single_threaded = 0;
}
