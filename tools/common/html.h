// What the tools' HTML pages share: text escaped for HTML, the head and style of a plain
// page of tables (the review pages' index, the match report, the ladder's page), and a file
// written whole. Their standings and cross tables are standings_table.h's.
#ifndef DIVERCITE_TOOLS_COMMON_HTML_H_
#define DIVERCITE_TOOLS_COMMON_HTML_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace divercite {

// `text` with & < > " ' as entities: safe in an element or a quoted attribute.
std::string HtmlEscape(absl::string_view text);

// The start of a self-contained page of tables: the doctype, the head (`title`, an empty
// icon so that no browser asks for one, the arena's style sheet, the one look of the project's
// pages, and `extra_css`), and the body's <main> up to its <h1>title</h1>. The page ends with
// kTablePageEnd.
std::string TablePageStart(absl::string_view title, absl::string_view extra_css = "");
inline constexpr absl::string_view kTablePageEnd = "</main>\n</body>\n</html>\n";

// Writes `text` to `path` (through a temporary file beside it, renamed: a reader never sees
// half a page).
absl::Status WriteTextFile(const std::string& path, absl::string_view text);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_COMMON_HTML_H_
