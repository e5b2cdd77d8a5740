/* Fortran bindings: placeholder */
typedef int ft_fortran_placeholder;
