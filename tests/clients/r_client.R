# Everyday calls of the official R client (the plotly package), one scenario per test.
#
# Run by tests/clients/r.test.ts as `Rscript r_client.R <scenario>...` with plotly's own settings in
# the environment (plotly_username, plotly_api_key, plotly_domain, plotly_api_domain: R/utils.R)
# pointing at a TLS front of the app (plotly.R speaks only https) and PF_CA_FILE naming the front's
# self-signed certificate. One R start runs several scenarios (loading plotly takes seconds), each as
# a user of its own when PF_USERS lists one per scenario (a JSON array of {username, api_key}; plotly.R
# reads its settings from the environment at every call). Each scenario's value is printed as one
# `RESULT <scenario> <json>` line; an error as one `FAILED <scenario> <json text>` line with the R call
# stack, the next scenario running regardless (httr prints each retried request to stderr).
suppressPackageStartupMessages(library(plotly))

# Trust the front's certificate (with one from a public CA, nothing is needed). httr's config
# applies to every request plotly.R makes; libcurl here ignores CURL_CA_BUNDLE.
httr::set_config(httr::config(cainfo = Sys.getenv("PF_CA_FILE")))

scenarios <- list()

points <- function(y) plot_ly(x = c(1, 2, 3), y = y, type = "scatter", mode = "markers")

fields <- function(file, names = c("fid", "filename", "filetype", "web_url", "world_readable")) {
  unclass(file)[intersect(names, names(file))]
}

scenarios$create_twice <- function() {
  first <- api_create(points(c(2, 1, 2)), filename = "r overwrite")
  # fileopt = "overwrite" (the default): found by name, PATCHed in place
  second <- api_create(points(c(3, 1, 3)), filename = "r overwrite")
  list(first = fields(first), second = fields(second))
}

scenarios$secret <- function() {
  file <- api_create(points(c(7, 8, 9)), filename = "r secret", sharing = "secret")
  fields(file, c("fid", "web_url", "world_readable", "share_key_enabled", "share_key"))
}

scenarios$private <- function() {
  fields(api_create(points(c(4, 5, 6)), filename = "r private", sharing = "private"))
}

scenarios$download_plot <- function() {
  file <- api_create(layout(points(c(5, 1, 5)), title = "Downloaded"), filename = "r download")
  id <- strsplit(file$fid, ":")[[1]]
  widget <- api_download_plot(id[2], id[1])
  trace <- widget$x$data[[1]]
  list(fid = file$fid, x = trace$x, y = trace$y, type = trace$type, title = widget$x$layout$title)
}

scenarios$grid <- function() {
  df <- data.frame(x = c(1, 2, 3), label = c("a", "b", "c"))
  first <- api_create(df, filename = "r grid")
  # overwrite: appends the columns again as "{name}-{random id}" (api_create_grid)
  second <- api_create(data.frame(x = c(4, 5, 6), label = c("d", "e", "f")), filename = "r grid")
  id <- strsplit(first$fid, ":")[[1]]
  downloaded <- api_download_grid(id[2], id[1])
  list(
    first = fields(first),
    first_cols = first$cols,
    second = fields(second),
    second_cols = second$cols,
    downloaded = fields(downloaded),
    downloaded_cols = downloaded$cols,
    preview = downloaded$preview
  )
}

scenarios$image <- function() {
  p <- layout(plot_ly(x = c(1, 2, 3), y = c(3, 1, 5), type = "bar"), title = "Export")
  dir <- tempfile("images")
  dir.create(dir)
  out <- list()
  for (format in c("png", "jpeg", "svg", "pdf")) {
    file <- file.path(dir, paste0("plot.", format))
    plotly_IMAGE(p, format = format, out_file = file)
    bytes <- readBin(file, "raw", n = file.size(file))
    out[[format]] <- list(length = length(bytes), head = paste(as.character(bytes[seq_len(min(64, length(bytes)))]), collapse = ""))
  }
  out
}

scenarios$api_root <- function() {
  root <- api()
  list(root = unclass(root), me = api("users/current")$username)
}

line <- function(word, name, value) {
  cat(word, " ", name, " ", jsonlite::toJSON(value, auto_unbox = TRUE, null = "null", digits = NA), "\n", sep = "")
}

one <- function(name) {
  if (is.null(scenarios[[name]])) return(line("FAILED", name, paste("no scenario named", name)))
  stack <- character()
  result <- tryCatch(
    withCallingHandlers(scenarios[[name]](), error = function(e) {
      calls <- sys.calls()
      # from the scenario to the failing call: without the frames above it and the two of this handler
      first <- Position(function(call) identical(call[[1]], quote(scenarios[[name]])), calls)
      calls <- calls[seq(first, length(calls) - 2)]
      stack <<- vapply(calls, function(call) substr(paste(deparse(call), collapse = " "), 1, 240), "")
    }),
    error = function(e) e
  )
  if (inherits(result, "error")) {
    line("FAILED", name, paste(c(conditionMessage(result), "--- R call stack (outermost first) ---", stack), collapse = "\n"))
  } else {
    line("RESULT", name, result)
  }
}

main <- function() {
  names <- commandArgs(trailingOnly = TRUE)
  users <- if (nzchar(Sys.getenv("PF_USERS"))) jsonlite::fromJSON(Sys.getenv("PF_USERS"), simplifyVector = FALSE) else list()
  for (i in seq_along(names)) {
    if (i <= length(users)) Sys.setenv(plotly_username = users[[i]]$username, plotly_api_key = users[[i]]$api_key)
    one(names[[i]])
  }
}

main()
