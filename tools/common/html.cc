#include "tools/common/html.h"

#include <filesystem>
#include <fstream>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "tools/common/style_sheet.h"

namespace divercite {

std::string HtmlEscape(absl::string_view text) {
  return absl::StrReplaceAll(
      text, {{"&", "&amp;"}, {"<", "&lt;"}, {">", "&gt;"}, {"\"", "&quot;"}, {"'", "&#39;"}});
}

std::string TablePageStart(absl::string_view title, absl::string_view extra_css) {
  return absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<link rel=\"icon\" href=\"data:,\">\n<title>",
      HtmlEscape(title), "</title>\n<style>\n", kStyleSheet, extra_css,
      "</style>\n</head>\n<body>\n<main>\n<h1>", HtmlEscape(title), "</h1>\n");
}

absl::Status WriteTextFile(const std::string& path, absl::string_view text) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return absl::PermissionDeniedError(absl::StrCat(path, ": cannot write"));
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) return absl::DataLossError(absl::StrCat(path, ": write failed"));
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::filesystem::remove(temporary, error);
    return absl::PermissionDeniedError(absl::StrCat(path, ": cannot write"));
  }
  return absl::OkStatus();
}

}  // namespace divercite
