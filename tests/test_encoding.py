import pytest

from extraction.encoding import decode_html

TEXT_ZH = "中文网页的正文内容，测试编码检测是否正确。" * 20
TEXT_TW = "繁體中文網頁的正文內容，測試編碼檢測是否正確。" * 20
TEXT_JA = "日本語のテキストです。文字コードの判定を確認します。" * 20


@pytest.mark.parametrize("encoding", ["gbk", "gb18030", "big5", "shift_jis", "utf-8"])
def test_declared_encodings_decode(encoding):
    text = {"shift_jis": TEXT_JA, "big5": TEXT_TW}.get(encoding, TEXT_ZH)
    html = f'<html><head><meta charset="{encoding}"></head><body><p>{text}</p></body></html>'
    decoded = decode_html(html.encode(encoding))
    assert text in decoded.text


@pytest.mark.parametrize("encoding", ["gbk", "big5", "shift_jis"])
def test_undeclared_cjk_is_detected(encoding):
    text = {"shift_jis": TEXT_JA, "big5": TEXT_TW}.get(encoding, TEXT_ZH)
    decoded = decode_html(f"<html><body><p>{text}</p></body></html>".encode(encoding))
    assert text in decoded.text
    assert decoded.source == "detected"


def test_gb2312_label_decodes_gbk_only_characters():
    # "镕" is in GBK but not in GB2312: browsers (and we) decode gb2312 as GB18030
    text = "朱镕基" + TEXT_ZH
    html = f'<meta http-equiv="Content-Type" content="text/html; charset=gb2312"><p>{text}</p>'
    assert text in decode_html(html.encode("gbk")).text


def test_mislabelled_latin1_page_that_is_utf8():
    text = "Café naïve – “quotes” " * 10
    html = f'<meta charset="iso-8859-1"><p>{text}</p>'
    assert text in decode_html(html.encode("utf-8")).text


def test_mislabelled_utf8_page_that_is_gbk():
    html = f'<meta charset="utf-8"><p>{TEXT_ZH}</p>'
    decoded = decode_html(html.encode("gbk"))
    assert TEXT_ZH in decoded.text


def test_http_header_wins_over_meta_when_it_fits():
    html = f'<meta charset="big5"><p>{TEXT_ZH}</p>'.encode("gbk")
    decoded = decode_html(html, "text/html; charset=GBK")
    assert TEXT_ZH in decoded.text and decoded.source == "http"


def test_bom():
    decoded = decode_html(b"\xff\xfe" + "<p>x ü</p>".encode("utf-16-le"))
    assert "x ü" in decoded.text and decoded.source == "bom"


def test_windows1252_smart_quotes_without_declaration():
    decoded = decode_html(b"<p>It\x92s a \x93test\x94 of the default code page.</p>" * 3)
    assert "It’s a “test”" in decoded.text
