/* alloc_brain.c: a Gomocup brain that, like Rapfi, sizes its table to all
 * the memory it is told (INFO max_memory), allocating it at START (ERROR
 * if it cannot have it), and touches every page of it before its first
 * move (not at START, whose 10 s a loaded machine may not give); then
 * plays 8,0 8,1 ... For tests/brain/contain.sh: it must play under the
 * default memory limit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    char line[256];
    long long memory = 0;
    char *table = NULL;
    int n = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "INFO max_memory %lld", &memory) == 1) continue;
        if (strncmp(line, "START", 5) == 0) {
            free(table);
            table = memory > 0 ? malloc((size_t)memory) : NULL;
            if (memory > 0 && !table) {
                printf("ERROR cannot allocate %lld bytes for my table\n", memory);
                continue;
            }
            printf("OK\n");
        } else if (strncmp(line, "BEGIN", 5) == 0 || strncmp(line, "TURN", 4) == 0 ||
                   strncmp(line, "DONE", 4) == 0) {
            if (n == 0 && table) memset(table, 1, (size_t)memory);
            printf("8,%d\n", n++);
        } else if (strncmp(line, "END", 3) == 0) {
            break;
        }
    }
    free(table);
    return 0;
}
