"""Publication dates: any written form of a date to ISO 8601, and dates a page states outside
its meta tags (in its URL, in a dated element's text).

:func:`iso_date` reads ISO 8601 and its relatives ("2019-11-20 13:42", "2019/11/20",
"20191120"), East Asian dates ("2019年11月20日", "2019년 11월 20일") and, through dateutil,
the written forms of English pages ("Tue, 19 Nov 2019 06:13:48 -0600", "November 19, 2019,
07:47 PM EST", "21/05/2003").  A value is a date only when it states a year, a month and a
day; the result keeps what it states: "2019-11-20", or "2019-11-20T13:42:00" with the time,
"2019-11-20T13:42:00+08:00" with its offset (a zone name other than UTC/GMT is dropped, it
names no offset unambiguously).
"""
from __future__ import annotations

import re
import unicodedata
import warnings
from datetime import datetime, timedelta, timezone
from urllib.parse import urlsplit

from dateutil import parser as _dateutil
from dateutil.tz import tzlocal

# years a page can be from (not Go's zero time, not a product number)
MIN_YEAR, MAX_YEAR = 1900, 2099

_ZONE = r"(?P<zone>Z|[+-]\d{2}(?::?\d{2})?|\s*(?:UTC|GMT)(?:[+-]\d{1,2}(?::?\d{2})?)?)?"
_CLOCK = (r"(?:[T\s]+(?P<hour>\d{1,2})[:：时](?P<minute>\d{2})(?:[:：分](?P<second>\d{2})"
          r"(?:[.,]\d+)?)?\s*(?P<ampm>[AaPp]\.?[Mm]\.?)?\s*" + _ZONE + r")?")
# year first: ISO 8601 and its relatives, East Asian dates
_YMD = re.compile(r"\s*(?P<year>\d{4})\s*(?:[-/.]|年|년)\s*(?P<month>\d{1,2})\s*(?:[-/.]|月|월)"
                  r"\s*(?P<day>\d{1,2})(?:\s*(?:日|号|號|일))?(?![\d/.-])" + _CLOCK)
# ... after something else ("10:00 2019-11-05", "Posted: 2019/11/05")
_YMD_INSIDE = re.compile(r"(?<![\d.:/-])" + _YMD.pattern.removeprefix(r"\s*"))
_COMPACT = re.compile(r"\s*(?P<year>(?:19|20)\d{2})(?P<month>\d{2})(?P<day>\d{2})"
                      r"(?:T(?P<hour>\d{2})(?P<minute>\d{2})(?P<second>\d{2})?(?P<ampm>)"
                      r"(?P<zone>Z|[+-]\d{2}(?::?\d{2})?)?)?\s*$")
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")

# month names besides English's (dateutil's own), as written in dates ("19. November 2019",
# "19 de noviembre de 2019", "19 ноября 2019"; Slavic and Greek in the genitive), with the
# common abbreviations (not those that are English words: "out", "set", "ago", "mag") and
# Turkish's also without its letters ("ARALIK"): French, German, Spanish, Italian,
# Portuguese, Dutch, Swedish, Danish, Norwegian, Indonesian, Polish, Czech, Russian,
# Ukrainian, Turkish, Greek
_MONTH_NAMES = (
    "janvier janv januar jänner enero ene gennaio janeiro januari stycznia sty ledna января "
    "янв січня ocak oca ιανουαρίου",
    "février fevrier févr fevr februar febrero febbraio fevereiro fev februari lutego lut "
    "února февраля фев лютого şubat subat şub φεβρουαρίου",
    "mars märz mär marzo março marco maart mrt marts maret marca března марта березня mart "
    "μαρτίου",
    "avril avr abril abr aprile april kwietnia kwi dubna апреля апр квітня nisan nis "
    "απριλίου",
    "mai maggio mayo maio mei maj maja května мая травня mayıs mayis μαΐου",
    "juin juni junio giugno giu junho czerwca cze června июня июн червня haziran haz ιουνίου",
    "juillet juil juli julio luglio lug julho lipca lip července июля июл липня temmuz tem "
    "ιουλίου",
    "août aout agosto augustus augusti agustus agu sierpnia sie srpna августа авг серпня "
    "ağustos agustos ağu αυγούστου",
    "septembre sept septiembre setiembre settembre setembro september września wrz září "
    "сентября сент сен вересня eylül eylul eyl σεπτεμβρίου",
    "octobre oct oktober okt octubre ottobre ott outubro października paź paz října октября "
    "окт жовтня ekim eki οκτωβρίου",
    "novembre noviembre novembro november listopada lis listopadu ноября ноя листопада "
    "kasım kasim kas νοεμβρίου",
    "décembre decembre déc dezember dez diciembre dic dicembre dezembro december desember "
    "des grudnia gru prosince декабря дек грудня aralık aralik ara δεκεμβρίου",
)


class _ParserInfo(_dateutil.parserinfo):
    """dateutil's English names, the other languages' months (:data:`_MONTH_NAMES`) and the
    words between a date's parts ("de", "der", "г.")."""

    MONTHS = [(*english, *names.split()) for english, names
              in zip(_dateutil.parserinfo.MONTHS, _MONTH_NAMES)]
    JUMP = [*_dateutil.parserinfo.JUMP, "de", "del", "di", "le", "la", "em", "om", "den",
            "der", "van", "г", "года", "року", "r", "roku", "του", "τ"]


_PARSER = _dateutil.parser(_ParserInfo())
_MONTH = ("(?:" + "|".join(sorted({name.lower() for names in _ParserInfo.MONTHS
                                   for name in names}, key=len, reverse=True)) + r")\.?")
_DAY = r"(?:[12]\d|3[01]|0?[1-9])(?:\s?(?:st|nd|rd|th)|er|\.|º|°)?"
# a date inside running text: "Posted on March 3rd, 2012 by", "Updated 19 Nov 2019 07:09 GMT",
# "19 de noviembre de 2019", "2019-11-20", "2019年11月20日", "21/05/2003"
_IN_TEXT = re.compile(
    r"(?<![\w/.-])(?:"
    r"(?:19|20)\d\d-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:[.,]\d+)?)?(?:Z|[+-]\d\d(?::?\d\d)?)?"
    rf"|{_MONTH}\s+{_DAY}\s*,?\s+(?:19|20)\d\d"
    rf"|{_DAY}\s+(?:of\s+|de\s+)?{_MONTH},?\s+(?:de\s+)?(?:19|20)\d\d"
    r"|(?:19|20)\d\d\s*(?:[-/.]|年|년)\s*\d{1,2}\s*(?:[-/.]|月|월)\s*\d{1,2}(?:\s*(?:日|号|號|일))?"
    r"|\d{1,2}([/.-])\d{1,2}\1(?:19|20)\d\d"
    r")(?![\w/-])(?:,?\s*(?:at\s+)?\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp]\.?[Mm]\.?)?)?", re.I)

# a date in a URL's path: /2019/11/20/, /2019-11-20-title, /20191120/
_URL_DATE = re.compile(
    # year, a separator, month, the same separator, day: "/2019/11/20/", "/2019-1-5-title"
    # (a one-digit day only before a separator or the end: "/2019/11/5.html" may be an id)
    r"(?<![^/_-])((?:19|20)\d{2})([/_-])(0[1-9]|1[0-2]|[1-9](?=[/_-]))\2"
    r"(0[1-9]|[12]\d|3[01]|[1-9](?=[/_-]|$))(?=[/_.-]|$)"
    # ... or eight digits, with a clock's six after them: "/20191120/", "/19970403134300.html"
    r"|(?<![^/_-])((?:19|20)\d{2})()(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])"
    r"(?:(?:[01]\d|2[0-3])[0-5]\d[0-5]\d)?(?=[/_.-]|$)")

# "GMT+3": dateutil reads the sign the POSIX way (three hours west); the offset alone is read
# as written
_POSIX_ZONE = re.compile(r"(?:GMT|UTC)(?=[+-]\d)", re.I)
# an ordinal's mark after a day, which dateutil does not read ("1er mars", "1º de mayo")
_ORDINAL = re.compile(r"(?<=\d)(?:er|º|°|ª)(?!\w)")
_NUMBER = re.compile(r"\d+")
# digits of other scripts as ASCII digits: full-width, Arabic-Indic, Persian, Devanagari,
# Bengali ("２０１９年１１月５日", "٢٠١٩")
_DIGITS = {ord(c): str(unicodedata.digit(c))
           for start in (0xFF10, 0x0660, 0x06F0, 0x0966, 0x09E6)
           for c in map(chr, range(start, start + 10))}
# "5.11.2019": dotted dates are day first everywhere
_DOTTED = re.compile(r"\d{1,2}\.\d{1,2}\.\d{4}")
# zone names that are UTC (given to dateutil: a name that is the machine's own zone would
# otherwise come back as the local zone, which is dropped)
_UTC_NAMES = {"UTC": 0, "GMT": 0, "UT": 0, "Z": 0}
_CLOCK_IN = re.compile(r"\d:\d\d|\dT\d|\d\s*[AaPp]\.?[Mm]\b")
_DEFAULTS = (datetime(1, 1, 1, 0, 0, 0), datetime(2, 2, 2, 1, 1, 1))


def ascii_digits(text: str) -> str:
    """``text`` with the digits of other scripts (full-width, Arabic-Indic...) as ASCII."""
    return text if text.isascii() else text.translate(_DIGITS)


def _result(year: int, month: int, day: int, hour: int | None = None, minute: int = 0,
            second: int = 0, offset: timedelta | None = None) -> str | None:
    if not MIN_YEAR <= year <= MAX_YEAR:
        return None
    try:
        value = datetime(year, month, day)
        if hour is None:
            return value.date().isoformat()
        value = value.replace(hour=hour, minute=minute, second=second)
        if offset is not None:
            value = value.replace(tzinfo=timezone(offset))
    except (ValueError, OverflowError):
        return None
    return value.isoformat()


def _offset(zone: str | None) -> timedelta | None:
    if not zone:
        return None
    zone = zone.strip().upper()
    for name in ("UTC", "GMT"):
        zone = zone.removeprefix(name)
    if zone in ("", "Z"):
        return timedelta(0)
    sign = -1 if zone[0] == "-" else 1
    hours, _, minutes = zone[1:].partition(":")
    if not minutes and len(hours) > 2:      # "+0530", "+530"
        hours, minutes = hours[:-2], hours[-2:]
    hours, minutes = int(hours), int(minutes or 0)
    if hours > 14 or minutes > 59:
        return None
    return sign * timedelta(hours=hours, minutes=minutes)


def _from_match(m: re.Match) -> str | None:
    year, month, day = int(m["year"]), int(m["month"]), int(m["day"])
    hour = m.groupdict().get("hour")
    if hour is None:
        return _result(year, month, day)
    hour = int(hour)
    ampm = (m["ampm"] or "").lower().replace(".", "")
    if ampm and not 1 <= hour <= 12:
        return _result(year, month, day)
    if ampm == "pm" and hour < 12:
        hour += 12
    elif ampm == "am" and hour == 12:
        hour = 0
    if hour > 23 or int(m["minute"]) > 59 or int(m["second"] or 0) > 59:
        return _result(year, month, day)
    return _result(year, month, day, hour, int(m["minute"]), int(m["second"] or 0),
                   _offset(m["zone"]))


def _dateutil_date(value: str, day_first: bool) -> str | None:
    """``value`` read by dateutil, when it states a year, a month and a day (two readings
    with different defaults must agree on them)."""
    readings = []
    value = _ORDINAL.sub("", value)
    # (year first, "Tue, 2019-11-05 10:00 CET", is never year-day-month)
    number = _NUMBER.search(value)
    year_first = number is not None and len(number.group()) == 4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # a zone name it does not know ("IST"): no offset
        for default in _DEFAULTS:
            try:
                readings.append(_PARSER.parse(
                    value, default=default, yearfirst=year_first, tzinfos=_UTC_NAMES,
                    dayfirst=(day_first or _DOTTED.search(value) is not None) and not year_first))
            except (ValueError, ArithmeticError, TypeError, LookupError):
                return None
    first, second = readings
    if first.date() != second.date():
        return None     # no day, month or year stated ("November 2019", "4:04 PM")
    # (a time only where the value writes a clock: dateutil reads "2019-11" after a date as
    # 20:19 at offset -11)
    timed = (first.hour, first.minute) == (second.hour, second.minute) \
        and _CLOCK_IN.search(value) is not None
    offset = None
    # (a zone name that is the machine's own, "EST" in New York, comes back as the local
    # zone: it names no offset a page could be read with elsewhere)
    if timed and first.tzinfo is not None and not isinstance(first.tzinfo, tzlocal):
        try:
            offset = first.utcoffset()
        except (ValueError, ArithmeticError):
            offset = None
        if offset is not None and abs(offset) >= timedelta(hours=24):
            offset = None
    return _result(first.year, first.month, first.day, first.hour if timed else None,
                   first.minute, first.second if first.second == second.second else 0, offset)


def iso_date(value: str | None, day_first: bool = False) -> str | None:
    """``value`` as an ISO 8601 date ("2019-11-20"), with its time when it states one
    ("2019-11-20T13:42:00", "...+08:00" with an offset); ``None`` when it states no whole date
    or a year outside 1900-2099.  ``day_first``: how to read "05/04/2003" (False: May 4, the
    US order; a day above 12 is read as a day either way)."""
    if not value or len(value) > 200:
        return None
    value = ascii_digits(value).strip()
    m = _YMD.match(value) or _COMPACT.match(value) or _YMD_INSIDE.search(value)
    if m:   # (what follows, "CET", "at 10:00", is no part of the date)
        return _from_match(m)
    if not _YEAR.search(value):
        return None
    value = _POSIX_ZONE.sub("", value)
    found = _dateutil_date(value, day_first) or text_date(value, day_first)
    return found if found and found[:4] in value else None


def text_date(text: str, day_first: bool = False) -> str | None:
    """The first whole date written in running ``text`` ("Posted on March 3, 2012 by ...")
    as :func:`iso_date` gives it; ``None`` when it holds none."""
    for m in _IN_TEXT.finditer(ascii_digits(text)):
        span = m.group(0)
        ymd = _YMD.match(span)
        found = _from_match(ymd) if ymd else _dateutil_date(span, day_first)
        if found:
            return found
    return None


def url_date(url: str | None) -> str | None:
    """A date in ``url``'s path ("/2019/11/20/", "/2019-11-20-title", "/2019-1-5-title",
    "/20191120/", "/19970403134300.html"), as "YYYY-MM-DD"; ``None`` when it holds none."""
    if not url:
        return None
    try:
        path = urlsplit(url).path
    except ValueError:
        return None
    for m in _URL_DATE.finditer(path):
        if m[1] is None:        # eight digits (the second form's groups)
            if m.start() and path[m.start() - 1] != "/":
                continue    # eight digits after "-" or "_" are an id's ("sku-20191231-blue")
            year, month, day = m[5], m[7], m[8]
        else:
            year, month, day = m[1], m[3], m[4]
        found = _result(int(year), int(month), int(day))
        if found:
            return found
    return None
