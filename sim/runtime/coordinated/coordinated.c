/* The coordinated family's driver (coordinated.h). From pcl-vs-vcl-fgcs08,
 * section 3: "If a failure occurs, all processes restart from their last
 * stored checkpoint": the generic runtime's rollback, nothing to add. */
#include "coordinated.h"

const struct ft_driver ft_coordinated_driver = {.name = "coordinated"};
