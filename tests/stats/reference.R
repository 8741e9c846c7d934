# reference.R - R's side of tests/stats/reference.json (see README.md).
# Usage: Rscript reference.R CASES.txt OUT.txt
# CASES.txt: lines "name<TAB>a|b<TAB>v1 v2 ..." (values printed with %.17g),
# plus lines "holm<TAB>p<TAB>p1 p2 ..." (NA allowed).
# OUT.txt: lines "name<TAB>key<TAB>value" with %.17g values.
args <- commandArgs(trailingOnly = TRUE)
lines <- readLines(args[1])
out <- file(args[2], "w")
put <- function(name, key, v) {
  s <- if (is.na(v)) "nan" else sprintf("%.17g", v)
  writeLines(paste(name, key, s, sep = "\t"), out)
}
sets <- list()
for (ln in lines) {
  f <- strsplit(ln, "\t")[[1]]
  vals <- suppressWarnings(as.numeric(strsplit(f[3], " ")[[1]]))
  if (is.null(sets[[f[1]]])) sets[[f[1]]] <- list()
  sets[[f[1]]][[f[2]]] <- vals
}
summ <- function(name, side, x) {
  q <- quantile(x, c(0.05, 0.25, 0.75, 0.95), type = 7, names = FALSE)
  iqr <- q[3] - q[2]
  ext <- x < q[2] - 3 * iqr | x > q[3] + 3 * iqr
  mild <- (x < q[2] - 1.5 * iqr | x > q[3] + 1.5 * iqr) & !ext
  put(name, paste0(side, ".mean"), mean(x))
  put(name, paste0(side, ".sd"), if (length(x) > 1) sd(x) else NA)
  put(name, paste0(side, ".median"), median(x))
  put(name, paste0(side, ".p5"), q[1])
  put(name, paste0(side, ".p95"), q[4])
  put(name, paste0(side, ".mad"), mad(x, constant = 1))
  put(name, paste0(side, ".mild"), sum(mild))
  put(name, paste0(side, ".extreme"), sum(ext))
}
for (name in names(sets)) {
  s <- sets[[name]]
  if (name == "holm") {
    adj <- p.adjust(s$p, method = "holm")
    for (i in seq_along(adj)) put(name, paste0("adj", i - 1), adj[i])
    next
  }
  a <- s$a; b <- s$b
  w <- suppressWarnings(wilcox.test(a, b, alternative = "two.sided", correct = TRUE))
  ties <- length(unique(c(a, b))) != length(c(a, b))
  put(name, "u", unname(w$statistic))
  put(name, "p", w$p.value)
  put(name, "exact", as.numeric(length(a) < 50 && length(b) < 50 && !ties))
  if (as.double(length(a)) * length(b) <= 4e6)
    put(name, "delta", mean(sign(outer(a, b, "-"))))
  summ(name, "a", a)
  summ(name, "b", b)
}
close(out)
