#!/usr/bin/env sh
# The catalogs of the game's words (docs/i18n.md), with Babel's pybabel:
#
#   scripts/i18n.sh extract   the template, protocol/locale/craits.pot, from the code
#   scripts/i18n.sh update    the template, then each catalog (de, el) brought up to it:
#                             new texts added untranslated, gone ones kept as obsolete (#~)
#   scripts/i18n.sh compile   each catalog compiled to its .mo beside it (not committed:
#                             the client compiles a .po at first use when no .mo is newer)
#   scripts/i18n.sh init LANG a catalog for a new language
#   scripts/i18n.sh           update, then compile, with each catalog's statistics
#
# pybabel is taken from .venv-test (the test environment), else from PATH.
# tests/i18n/test_catalogs.py fails when the template is out of date or a catalog
# is not complete: run `scripts/i18n.sh update`, translate, and commit both.
set -eu
cd "$(dirname "$0")/.."
PYBABEL=pybabel
[ -x .venv-test/bin/pybabel ] && PYBABEL=.venv-test/bin/pybabel
LOCALE=protocol/locale
POT=$LOCALE/craits.pot
# the marking functions of craits.protocol.i18n (gettext, ngettext, pgettext and
# npgettext are Babel's defaults)
KEYWORDS="-k N_ -k _l -k lazy_pgettext:1c,2 -k lazy_ngettext:1,2"

extract() {
  # file names without line numbers: moving code does not change the template
  # shellcheck disable=SC2086
  "$PYBABEL" -q extract $KEYWORDS --width=100 --add-location=file --sort-output \
    --project=Craits --copyright-holder="the Craits authors" \
    --msgid-bugs-address="" --add-comments=TRANSLATORS: \
    -o "$POT" client protocol server
}

update() {
  extract
  "$PYBABEL" -q update -D craits --width=100 -i "$POT" -d "$LOCALE" --no-fuzzy-matching \
    --ignore-obsolete
}

compile_all() {
  "$PYBABEL" compile -D craits -d "$LOCALE" --statistics
}

case "${1:-all}" in
  extract) extract ;;
  update) update ;;
  compile) compile_all ;;
  init) extract; "$PYBABEL" init -D craits -i "$POT" -d "$LOCALE" -l "${2:?a language code}" ;;
  all) update; compile_all ;;
  *) echo "usage: $0 [extract|update|compile|init LANG]" >&2; exit 2 ;;
esac
