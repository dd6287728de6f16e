// divercite._core's pages of tables: the one writer of the standings and cross tables
// (tools/common/standings_table.h) and the page that carries them with the arena's style sheet
// (tools/common/html.h), for the ladder's page and the arena's. A row is a dict of the
// writer's fields; a wrong name or type is an error naming the row and the field.
#include "python/src/standings_tables.h"

#include <pybind11/stl.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tools/common/html.h"
#include "tools/common/standings_table.h"

namespace divercite {
namespace {

std::string TypeName(py::handle value) { return py::str(value.get_type().attr("__name__")); }

[[noreturn]] void WrongType(absl::string_view where, absl::string_view field,
                            absl::string_view wanted, py::handle value) {
  throw py::type_error(
      absl::StrCat(where, ": '", field, "' must be ", wanted, ", not ", TypeName(value)));
}

std::string TextOf(py::handle value, absl::string_view where, absl::string_view field) {
  if (!py::isinstance<py::str>(value)) WrongType(where, field, "a str", value);
  return value.cast<std::string>();
}

// None is no text.
std::string OptionalText(py::handle value, absl::string_view where, absl::string_view field) {
  return value.is_none() ? std::string() : TextOf(value, where, field);
}

int IntOf(py::handle value, absl::string_view where, absl::string_view field) {
  if (!py::isinstance<py::int_>(value)) WrongType(where, field, "an int", value);
  return value.cast<int>();
}

std::optional<double> NumberOf(py::handle value, absl::string_view where, absl::string_view field) {
  if (value.is_none()) return std::nullopt;
  if (!py::isinstance<py::int_>(value) && !py::isinstance<py::float_>(value)) {
    WrongType(where, field, "a number or None", value);
  }
  return value.cast<double>();
}

using Setter = std::function<void(StandingsRow&, py::handle, const std::string&)>;

// The fields of a row, by name.
const std::map<std::string, Setter>& RowFields() {
  static const auto* fields = [] {
    auto* made = new std::map<std::string, Setter>;  // kept until exit, on purpose
    const auto text = [made](const char* name, std::string StandingsRow::*field) {
      (*made)[name] = [=](StandingsRow& row, py::handle value, const std::string& where) {
        row.*field = OptionalText(value, where, name);
      };
    };
    const auto whole = [made](const char* name, int StandingsRow::*field) {
      (*made)[name] = [=](StandingsRow& row, py::handle value, const std::string& where) {
        row.*field = IntOf(value, where, name);
      };
    };
    const auto number = [made](const char* name, std::optional<double> StandingsRow::*field) {
      (*made)[name] = [=](StandingsRow& row, py::handle value, const std::string& where) {
        row.*field = NumberOf(value, where, name);
      };
    };
    text("name", &StandingsRow::name);
    text("link", &StandingsRow::link);
    text("mark", &StandingsRow::mark);
    text("row_class", &StandingsRow::row_class);
    whole("rank", &StandingsRow::rank);
    number("elo", &StandingsRow::elo);
    number("elo_low", &StandingsRow::elo_low);
    number("elo_high", &StandingsRow::elo_high);
    whole("games", &StandingsRow::games);
    whole("wins", &StandingsRow::wins);
    whole("draws", &StandingsRow::draws);
    whole("losses", &StandingsRow::losses);
    (*made)["points"] = [](StandingsRow& row, py::handle value, const std::string& where) {
      const std::optional<double> points = NumberOf(value, where, "points");
      if (!points) WrongType(where, "points", "a number", value);
      row.points = *points;
    };
    (*made)["version"] = [](StandingsRow& row, py::handle value, const std::string& where) {
      row.version =
          value.is_none() ? std::nullopt : std::optional<int>(IntOf(value, where, "version"));
    };
    whole("divercites", &StandingsRow::divercites);
    whole("points_for", &StandingsRow::points_for);
    whole("points_against", &StandingsRow::points_against);
    number("ms_per_move", &StandingsRow::ms_per_move);
    whole("time_losses", &StandingsRow::time_losses);
    return made;
  }();
  return *fields;
}

std::string FieldNames() {
  std::vector<std::string> names;
  for (const auto& [name, setter] : RowFields()) names.push_back(name);
  return absl::StrJoin(names, ", ");
}

StandingsRow RowOf(py::handle value, size_t index) {
  const std::string where = absl::StrCat("row ", index + 1);
  if (!py::isinstance<py::dict>(value)) WrongType(where, "row", "a dict", value);
  StandingsRow row;
  row.rank = static_cast<int>(index) + 1;
  bool named = false;
  for (const auto& [key, field] : value.cast<py::dict>()) {
    const std::string name = TextOf(key, where, "a field's name");
    const auto setter = RowFields().find(name);
    if (setter == RowFields().end()) {
      throw py::value_error(
          absl::StrCat(where, ": no field '", name, "' (the fields: ", FieldNames(), ")"));
    }
    setter->second(row, field, where);
    named = named || name == "name";
  }
  if (!named) throw py::value_error(absl::StrCat(where, ": no 'name'"));
  return row;
}

// The sequence `value` (not a str, whose characters would each be an item).
py::iterator ItemsOf(py::handle value, absl::string_view what) {
  if (py::isinstance<py::str>(value)) {
    throw py::type_error(absl::StrCat(what, " must be a sequence, not one str"));
  }
  return py::iter(value);
}

StandingsColumns ColumnsOf(py::handle value) {
  const std::map<std::string, bool StandingsColumns::*> groups = {
      {"version", &StandingsColumns::version},       {"points", &StandingsColumns::points},
      {"win_ratio", &StandingsColumns::win_ratio},   {"score", &StandingsColumns::score},
      {"divercites", &StandingsColumns::divercites}, {"clock", &StandingsColumns::clock}};
  StandingsColumns columns;
  for (py::handle item : ItemsOf(value, "columns")) {
    const std::string name = TextOf(item, "columns", "a group");
    const auto group = groups.find(name);
    if (group == groups.end()) {
      throw py::value_error(absl::StrCat("no column group '", name,
                                         "' (the groups: version, points, win_ratio, score, "
                                         "divercites, clock)"));
    }
    columns.*(group->second) = true;
  }
  return columns;
}

std::optional<CrossCell> CellOf(py::handle value, const std::string& where) {
  if (value.is_none()) return std::nullopt;
  if (!py::isinstance<py::dict>(value)) WrongType(where, "cell", "a dict or None", value);
  CrossCell cell;
  for (const auto& [key, field] : value.cast<py::dict>()) {
    const std::string name = TextOf(key, where, "a field's name");
    std::string* into = name == "text"   ? &cell.text
                        : name == "note" ? &cell.note
                        : name == "link" ? &cell.link
                                         : nullptr;
    if (into == nullptr) {
      throw py::value_error(
          absl::StrCat(where, ": no field '", name, "' (the fields: text, note, link)"));
    }
    *into = OptionalText(field, where, name);
  }
  return cell;
}

}  // namespace

void BindStandingsTables(py::module_& m) {
  m.def(
      "standings_table_html",
      [](py::handle rows, py::handle columns, const std::string& table_id,
         const std::string& name_heading, bool sortable, const std::string& empty) {
        std::vector<StandingsRow> read;
        for (py::handle row : ItemsOf(rows, "rows")) read.push_back(RowOf(row, read.size()));
        StandingsTableOptions options;
        options.columns = ColumnsOf(columns);
        options.id = table_id;
        options.name_heading = name_heading;
        options.sortable = sortable;
        options.empty = empty;
        return StandingsTableHtml(read, options);
      },
      py::arg("rows"), py::arg("columns") = py::tuple(), py::kw_only(), py::arg("table_id") = "",
      py::arg("name_heading") = "Team", py::arg("sortable") = true, py::arg("empty") = "",
      "The standings table in the arena's markup (tools/common/standings_table.h, the one "
      "writer of divercite-match -html's, the ladder's and the arena's): rows are dicts of "
      "name (required), link, mark, row_class, rank (the row's place by default), elo, "
      "elo_low, elo_high (None: unrated or unbounded), games, wins, draws, losses, points, "
      "and the groups' fields: version; divercites, points_for, points_against (their values "
      "a game and ratio computed by the writer); ms_per_move, time_losses. columns: the "
      "groups shown beside the others, of version, points, win_ratio, score, divercites, "
      "clock. table_id: the table's id; "
      "sortable: the class sortable.js sorts; empty: the one row's text when there is none. "
      "Every text is escaped.");
  m.def("ratio_text", &RatioText, py::arg("above"), py::arg("below"),
        "A ratio as the standings table shows it (tools/common/standings_table.h): above per "
        "below to two decimals ('3.33'), '∞' where below is 0 and above is not, '–' where "
        "both are; W/L is ratio_text(wins, losses).");
  m.def(
      "cross_table_html",
      [](py::handle names, py::handle cells, const std::string& table_id,
         const std::string& name_heading) {
        std::vector<std::string> read_names;
        for (py::handle name : ItemsOf(names, "names")) {
          read_names.push_back(TextOf(name, "names", absl::StrCat(read_names.size() + 1)));
        }
        std::vector<std::vector<std::optional<CrossCell>>> read_cells;
        for (py::handle row : ItemsOf(cells, "cells")) {
          std::vector<std::optional<CrossCell>>& cells_of_row = read_cells.emplace_back();
          for (py::handle cell : ItemsOf(row, "a row of cells")) {
            cells_of_row.push_back(CellOf(
                cell, absl::StrCat("cell ", read_cells.size(), ", ", cells_of_row.size() + 1)));
          }
          if (cells_of_row.size() != read_names.size()) {
            throw py::value_error(absl::StrCat("cells: row ", read_cells.size(), " has ",
                                               cells_of_row.size(), " cells, not ",
                                               read_names.size()));
          }
        }
        if (read_cells.size() != read_names.size()) {
          throw py::value_error(
              absl::StrCat("cells: ", read_cells.size(), " rows, not ", read_names.size()));
        }
        CrossTableOptions options;
        options.id = table_id;
        options.name_heading = name_heading;
        return CrossTableHtml(read_names, read_cells, options);
      },
      py::arg("names"), py::arg("cells"), py::kw_only(), py::arg("table_id") = "",
      py::arg("name_heading") = "Team",
      "The cross table in the arena's markup (tools/common/standings_table.h): names in the "
      "standings' order, numbered from 1; cells[i][j] the row's result against the column's, "
      "a dict of text, note (a second line, muted) and link, or None where they have not "
      "played (the diagonal is left blank). Every text is escaped.");
  m.def(
      "table_page_html",
      [](const std::string& title, const std::string& body) {
        return absl::StrCat(TablePageStart(title), body, kTablePageEnd);
      },
      py::arg("title"), py::arg("body"),
      "A self-contained page around `body` (HTML, put in as it is) with the arena's style "
      "sheet, the page divercite-match -html and divercite-analyze's index are written in "
      "(tools/common/html.h's TablePageStart): its title escaped, as the <title> and the "
      "<h1>.");
}

}  // namespace divercite
