"""Reader comments (extraction/comments.py): a page's comment thread, apart from its text."""
import json

import pytest

from extraction import extract
from extraction.cli import COMMENTS_RULE, main
from extraction.datasets import load

ARTICLE = "".join(f"<p>Paragraph {i} of the post about sourdough bread, its starter, flour, "
                  "water and the long slow rise that gives the crumb its open holes.</p>"
                  for i in range(8))
THREAD = """
<div id="comments" class="comments-area">
  <h2 class="comments-title">3 Comments</h2>
  <ol class="comment-list">
    <li id="comment-1" class="comment even">
      <article class="comment-body">
        <footer class="comment-meta"><b class="fn">Anna</b> says: March 3, 2024</footer>
        <div class="comment-content"><p>I tried this with rye flour and it rose beautifully.
          Thanks for the detailed steps!</p></div>
        <div class="reply"><a class="comment-reply-link" href="#">Reply</a></div>
      </article>
      <ol class="children">
        <li id="comment-2" class="comment odd">
          <article class="comment-body">
            <div class="comment-content"><p>Rye needs more water in my experience, about
              ten percent more.</p></div>
            <div class="reply"><a class="comment-reply-link" href="#">Reply</a></div>
          </article>
        </li>
      </ol>
    </li>
    <li id="comment-3" class="comment even"><div class="comment-content">
      <p><a href="/u/bo">Bo</a></p></div></li>
  </ol>
  <p class="comment-notes">Comments are moderated and will appear after approval.</p>
  <div id="respond" class="comment-respond"><h3>Leave a Reply</h3>
    <form id="commentform"><label>Comment</label><textarea></textarea>
      <button>Post Comment</button></form></div>
</div>"""
SIDEBAR = """<aside class="widget widget_recent_comments"><h2>Recent Comments</h2>
  <ul id="recentcomments"><li class="recentcomments">Carl on <a href="/x">Another post about
  something else entirely, with a long title</a></li></ul></aside>"""


def _page(body: str) -> str:
    return f"<html><head><title>Sourdough</title></head><body><article>{ARTICLE}</article>" \
        f"{body}</body></html>"


def test_a_blogs_thread_without_its_form_buttons_notices_and_other_posts_comments():
    result = extract(_page(THREAD + SIDEBAR), "https://blog.test/sourdough", comments=True)
    assert result.comments == (
        "Anna says: March 3, 2024\n"
        "I tried this with rye flour and it rose beautifully. Thanks for the detailed steps!\n"
        "Rye needs more water in my experience, about ten percent more.")
    # the main text keeps none of it, and holds what it held without comments=True
    assert "rye" not in result.text and result.text == extract(_page(THREAD + SIDEBAR)).text
    assert extract(_page(THREAD)).comments is None          # not asked for


def test_no_comments_is_an_empty_string_and_a_page_wrapper_is_no_thread():
    assert extract(_page(SIDEBAR), comments=True).comments == ""
    # WordPress marks the <body> "comments-open": the page is not its own comment
    page = _page("").replace("<body>", '<body class="single comments-open comment">')
    result = extract(page, comments=True)
    assert result.comments == "" and "sourdough bread" in result.text
    # a thread the page loads later holds only its placeholder
    assert extract(_page('<div id="comments"><div class="comment">Loading comments...</div>'
                         '</div>'), comments=True).comments == ""
    assert extract(b"", comments=True).comments == ""
    assert extract(b"\x00\xff" * 100, comments=True).comments == ""


def test_microdata_comments_and_links_to_opinion_pieces():
    def one(who: str, what: str) -> str:
        return (f'<div itemprop="comment" itemscope itemtype="https://schema.org/Comment">'
                f'<span itemprop="author">{who}</span> <time>2 days ago</time>'
                f'<p itemprop="text">{what}</p></div>')

    thread = ("<section><h2>Reactions</h2>"
              + one("Dee", "The oven temperature in step four should be in Celsius, I think.")
              + one("Eli", "Worked for me at 230 degrees, twenty minutes covered.")
              + "</section>")
    assert extract(_page(thread), comments=True).comments == (
        "Dee 2 days ago\nThe oven temperature in step four should be in Celsius, I think.\n"
        "Eli 2 days ago\nWorked for me at 230 degrees, twenty minutes covered.")
    # a list marked "comment" whose items are links (a paper's opinion section) is no thread
    links = "".join(f'<li class="comment"><a href="/o{i}">Comment: an opinion piece about '
                    f'politics number {i}</a> By A. Writer</li>' for i in range(5))
    assert extract(_page(f"<ul>{links}</ul>"), comments=True).comments == ""


def test_the_command_line_gives_the_comments_on_request(tmp_path, capsys):
    page = tmp_path / "post.html"
    page.write_text(_page(THREAD), encoding="utf-8")
    assert main(["extract", str(page), "--comments"]) == 0
    out = capsys.readouterr().out
    text, comments = out.split(f"\n{COMMENTS_RULE}\n")
    assert "sourdough bread" in text and comments.startswith("Anna says:")
    assert main(["extract", str(page), "--comments", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["comments"].startswith("Anna says:")
    pred = tmp_path / "out.jsonl"
    assert main(["batch", "--input", str(tmp_path), "--output", str(pred), "--quiet",
                 "--comments"]) == 0
    row = json.loads(pred.read_text(encoding="utf-8"))
    assert row["comments"].startswith("Anna says:") and "sourdough" in row["text"]
    assert main(["extract", str(page)]) == 0
    assert COMMENTS_RULE not in capsys.readouterr().out


@pytest.mark.shared
def test_real_blog_threads_come_apart_from_the_text(extraction_data):
    """dragnet pages (their gold text leaves the comments out): the comments of a recipe blog
    and of a WordPress post, none of their words taken from the gold's text."""
    pages = {p.id: p for name in ("dragnet-dev", "dragnet-train") for p in load(name).pages}
    for key, first in (("dnR150", "On October 26, 2012 at 2:08am, Rosa said..."),
                       ("dnR895", "Ashutosh Joshi October 31, 2012 at 9:41 am")):
        page = pages[key]
        result = extract(page.html(), page.url, comments=True)
        assert result.comments.startswith(first), result.comments[:200]
        assert result.comments.split("\n")[1] not in page.gold
        assert result.text == extract(page.html(), page.url).text


def _comments_of(thread: str) -> str:
    return extract(_page(thread), "https://blog.test/p", comments=True).comments


def test_comments_that_mention_commenting_are_kept_and_notices_are_not():
    said = ("Great post! I have been reading your blog for years and never left a comment "
            "before.", "Thanks for posting this. One comment: the second chart has its axes "
            "swapped.", "As I said in my earlier comment, the rules changed in 2019.")
    thread = '<div class="comments">' + "".join(
        f'<div class="comment"><p>{text}</p></div>' for text in said) \
        + '<div class="comment"><p>Comments are moderated and appear after approval.</p>' \
        '</div><div class="comment"><p>Be the first to comment on this post!</p></div></div>'
    assert _comments_of(thread) == "\n".join(said)


def test_platform_markup_old_reddit_csdn_disqus_and_short_comments():
    # old Reddit shows each comment's text inside a <form class="usertext">
    reddit = ('<div class="commentarea"><div class="thing comment"><p class="tagline">'
              '<a href="/u/x">x</a> 3 points</p><form class="usertext"><input type="hidden">'
              '<div class="usertext-body"><div class="md"><p>The second method is faster on '
              'large files.</p></div></div></form></div></div>')
    assert _comments_of(reddit) == "x 3 points\nThe second method is faster on large files."
    # CSDN: "new-comment" holds the text, "comment-top" the commenter
    csdn = ('<div class="comment-list-box"><ul><li class="comment-line-box"><div '
            'class="comment-top"><span class="name">码农老张</span></div><div '
            'class="new-comment">这篇文章写得很清楚，解决了我的编码问题，谢谢！</div></li></ul>'
            '</div>')
    assert _comments_of(csdn) == "码农老张\n这篇文章写得很清楚，解决了我的编码问题，谢谢！"
    # Disqus as rendered into the page: posts inside the thread
    disqus = ('<div id="disqus_thread"><ul id="post-list"><li class="post"><div '
              'class="post-message"><p>Like it, still nice.</p></div></li></ul></div>')
    assert _comments_of(disqus) == "Like it, still nice."
    # a short comment whose markup outweighs the page's nodes is still a comment
    buttons = "".join(f'<p><a class="btn" href="#{i}">Reply</a></p>' for i in range(3))
    short = (f'<html><body><p>{"A short note about the weather today. " * 6}</p>'
             f'<div class="comments"><div class="comment"><p>Sunny here too, thanks.</p>'
             f'{buttons}</div></div></body></html>')
    assert extract(short, comments=True).comments == "Sunny here too, thanks."


def test_plain_extract_prints_comments_of_a_page_without_main_text_and_batch_full_rows(
        tmp_path, capsys):
    page = tmp_path / "only-comments.html"
    page.write_text('<html><body><div class="comments"><div class="comment"><p>First!!! '
                    'I came here for the comments, obviously.</p></div></div></body></html>',
                    encoding="utf-8")
    # (E5 without a sibling page finds no main text)
    main(["extract", str(page), "--comments", "--method", "e5"])
    captured = capsys.readouterr()
    assert captured.out == f"\n{COMMENTS_RULE}\nFirst!!! I came here for the comments, " \
        "obviously.\n" and "no main text" in captured.err
    # a page skipped by --max-bytes keeps its "text" field with --full --comments
    pred = tmp_path / "out.jsonl"
    assert main(["batch", "--input", str(tmp_path), "--output", str(pred), "--quiet",
                 "--full", "--comments", "--max-bytes", "10"]) == 0
    row = json.loads(pred.read_text(encoding="utf-8"))
    assert row["text"] == "" and row["comments"] == ""


@pytest.mark.parametrize("line", ["Join the Discussion", "Join The Conversation: Sign Up / Log In",
                                  "Loading comments...", "Loading...", "About Discussions",
                                  "Comments (3)", "Post a comment"])
def test_a_thread_holding_only_a_call_or_a_placeholder_has_no_comments(line):
    assert _comments_of(f'<div class="comments"><div class="comment"><p>{line}</p></div>'
                        '</div>') == ""


def test_notices_inside_a_thread_go_and_comments_stay():
    thread = ('<div class="comments"><div class="comment"><p>Slips like these tell you who is '
              'behind these brands.</p><p>Posted by: Bob | October 30, 2012</p></div>'
              '<div class="comment"><p>Your comment has been posted. <a href="#">Post another '
              'comment</a></p></div><div class="comment"><p>Comments on this article are now '
              'closed.</p></div><div class="comment"><p>By submitting this comment you agree '
              'to the <a href="/t">Terms and Conditions</a></p></div></div>')
    assert _comments_of(thread) == ("Slips like these tell you who is behind these brands.\n"
                                     "Posted by: Bob | October 30, 2012")


def test_comments_that_begin_like_notices_stay():
    said = ("This comment is spot on, I agree with all of it.",
            "The comment was fair, but the numbers are from 2019.",
            "No comments on the politics, but the recipe is great.",
            "Copyright law needs a reform, as the post says.",
            "Be the first to admit it: the old bridge was ugly.")
    thread = '<div class="comments">' + "".join(
        f'<div class="comment"><p>{text}</p></div>' for text in said) \
        + '<div class="comment reply"><p>A reply marked as one, and a comment.</p></div>' \
        + '<div class="comment share-comment"><p>Shared this with my whole team.</p></div>' \
        + "</div>"
    assert _comments_of(thread) == "\n".join(said + ("A reply marked as one, and a comment.",
                                                     "Shared this with my whole team."))
