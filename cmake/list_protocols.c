/* Prints the registry, one protocol a line: "NAME FAMILY". A build tool,
 * not a core: protocols/CMakeLists.txt builds and runs it at configure
 * time, so that the tests' lists of protocols (FTSIM_PROTOCOLS and the
 * others) are read from the registry, not written out in every
 * CMakeLists.txt. */
#include <stdio.h>

#include "ft_protocol.h"

int main(void) {
  for (size_t i = 0; ft_protocol_at(i); i++)
    printf("%s %s\n", ft_protocol_at(i)->name,
           ft_family_name(ft_protocol_at(i)->family));
  return 0;
}
