// divercite._core's pages of tables (standings_tables.cc).
#ifndef DIVERCITE_PYTHON_SRC_STANDINGS_TABLES_H_
#define DIVERCITE_PYTHON_SRC_STANDINGS_TABLES_H_

#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace divercite {

// Adds standings_table_html, cross_table_html and table_page_html to the module.
void BindStandingsTables(py::module_& m);

}  // namespace divercite

#endif  // DIVERCITE_PYTHON_SRC_STANDINGS_TABLES_H_
