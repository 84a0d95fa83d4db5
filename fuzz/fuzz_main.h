/* fuzz_main.h - the standalone main of the fuzz targets: without libFuzzer
   (PD_FUZZ_LIBFUZZER not defined) a target is a replay binary that runs
   LLVMFuzzerTestOneInput over every file named on the command line and every
   file in every directory named there (not recursive). Prints one line per
   input run and exits 0; a sanitizer report aborts the run.

   Include last, after the target's LLVMFuzzerTestOneInput. */
#ifndef FUZZ_MAIN_H
#define FUZZ_MAIN_H

#ifndef PD_FUZZ_LIBFUZZER
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int fuzz_run_file(const char *path) {
    FILE *fp = fopen(path, "rb");
    unsigned char *buf;
    long n;
    if (!fp) { fprintf(stderr, "%s: cannot open\n", path); return 1; }
    if (fseek(fp, 0, SEEK_END) != 0 || (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0) {
        fclose(fp);
        fprintf(stderr, "%s: cannot read\n", path);
        return 1;
    }
    /* exactly n bytes (1 for an empty file), so ASan sees a read past the end */
    buf = (unsigned char *)malloc(n ? (size_t)n : 1);
    if (!buf || fread(buf, 1, (size_t)n, fp) != (size_t)n) {
        free(buf);
        fclose(fp);
        fprintf(stderr, "%s: cannot read\n", path);
        return 1;
    }
    fclose(fp);
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    free(buf);
    printf("ran %s (%ld bytes)\n", path, n);
    return 0;
}

int main(int argc, char **argv) {
    int i, bad = 0;
    for (i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
            DIR *d = opendir(argv[i]);
            struct dirent *de;
            if (!d) { fprintf(stderr, "%s: cannot open\n", argv[i]); bad = 1; continue; }
            while ((de = readdir(d)) != NULL) {
                char path[4096];
                struct stat fs;
                if (de->d_name[0] == '.') continue;
                snprintf(path, sizeof path, "%s/%s", argv[i], de->d_name);
                if (stat(path, &fs) == 0 && S_ISREG(fs.st_mode)) bad |= fuzz_run_file(path);
            }
            closedir(d);
        } else {
            bad |= fuzz_run_file(argv[i]);
        }
    }
    return bad;
}
#endif

#endif
