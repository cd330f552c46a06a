"""Synthetic sites for the title study. Each page: url, title, optional og (og:title),
site (og:site_name), h1 (list of <h1> texts, in page order; raw HTML if it starts with "<"),
h2 (first sub-heading), expect (the headline a careful human would write), ok (other
acceptable answers, only where the page is genuinely ambiguous)."""

def P(url, title, expect, h1=(), og=None, site=None, h2=None, ok=(), tags=()):
    return dict(url=url, title=title, expect=expect, h1=list(h1), og=og, site=site, h2=h2,
                ok=list(ok), tags=set(tags))

SL = lambda t: f'<h1>{t}<a class="headerlink" href="#x" title="Link to this heading">¶</a></h1>'

SITES = {}

# 1. "Headline | Site"
B = "https://www.dailycourier.com"
SITES["courier: Headline | Site"] = [
    P(B + "/news/local/2024/03/12/city-council-approves-budget/",
      "City council approves $4.2 billion budget after late-night session | The Daily Courier",
      "City council approves $4.2 billion budget after late-night session",
      h1=["City council approves $4.2 billion budget after late-night session"]),
    P(B + "/news/local/2024/03/12/school-bus-drivers-strike/",
      "School bus drivers vote to strike as talks stall | The Daily Courier",
      "School bus drivers vote to strike as talks stall",
      h1=["The Daily Courier", "School bus drivers vote to strike as talks stall"], tags={"logo-h1"}),
    P(B + "/sports/2024/03/12/tigers-rally-home-opener/",
      "Tigers rally in ninth to win home opener 5-4 | The Daily Courier",
      "Tigers rally in ninth to win home opener",
      h1=["Tigers rally in ninth to win home opener"],
      ok=["Tigers rally in ninth to win home opener 5-4"]),
    P(B + "/opinion/2024/03/13/letters-to-the-editor/",
      "Letters to the editor: March 13, 2024 | The Daily Courier",
      "Letters to the editor: March 13, 2024", h2="Readers weigh in on the budget", tags={"no-h1"}),
    P(B + "/business/2024/03/13/paper-mill-to-close/",
      "Paper mill to close after 80 years, cutting 300 jobs | Business | The Daily Courier",
      "Paper mill to close after 80 years, cutting 300 jobs",
      h1=["Paper mill to close after 80 years, cutting 300 jobs"],
      og="Paper mill to close after 80 years, cutting 300 jobs", site="The Daily Courier"),
    P(B + "/news/local/2024/03/13/storm-snow-weekend/",
      "Storm could bring up to a foot of snow | The Daily Courier",
      "Storm could bring up to a foot of snow this weekend",
      h1=["Storm could bring up to a foot of snow this weekend"],
      ok=["Storm could bring up to a foot of snow"]),
    P(B + "/about/contact/", "Contact Us | The Daily Courier", "Contact Us", h1=["Contact Us"]),
]

# 2. "Site | Section | Headline"
B = "https://www.metrostar.ca"
SITES["metrostar: Site | Section | Headline"] = [
    P(B + "/sports/hockey/2024/02/01/leafs-edge-bruins-in-shootout.html",
      "Metro Star | Sports | Leafs edge Bruins in shootout to snap skid",
      "Leafs edge Bruins in shootout to snap skid",
      h1=["Leafs edge Bruins in shootout to snap skid"], site="Metro Star"),
    P(B + "/sports/basketball/2024/02/01/raptors-trade-veteran-guard.html",
      "Metro Star | Sports | Raptors trade veteran guard for two draft picks",
      "Raptors trade veteran guard for two draft picks",
      h1=["Raptors trade veteran guard for two draft picks"], site="Metro Star"),
    P(B + "/news/gta/2024/02/02/transit-fares-rise.html",
      "Metro Star | GTA | Transit fares to rise 10 cents in April",
      "Transit fares to rise 10 cents in April",
      h1=["Transit fares to rise 10 cents in April"], site="Metro Star"),
    P(B + "/business/2024/02/02/bank-of-canada-holds-rate.html",
      "Metro Star | Business | Bank of Canada holds key rate at 5%",
      "Bank of Canada holds key rate at 5%", site="Metro Star", tags={"no-h1"}),
    P(B + "/entertainment/movies/2024/02/03/review-dune-part-two.html",
      "Metro Star | Entertainment | Review: 'Dune: Part Two' is a towering spectacle",
      "Review: 'Dune: Part Two' is a towering spectacle",
      h1=["Review: 'Dune: Part Two' is a towering spectacle"], site="Metro Star"),
    P(B + "/sports/basketball/2024/02/01/raptors-trade-veteran-guard.html?utm_source=twitter",
      "Metro Star | Sports | Raptors trade veteran guard for two draft picks",
      "Raptors trade veteran guard for two draft picks",
      h1=["Raptors trade veteran guard for two draft picks"], site="Metro Star", tags={"dup-url"}),
    P(B + "/life/travel/2024/02/03/day-trips.html",
      "Metro Star | Life | 10 day trips within two hours of the city",
      "10 day trips within two hours of the city",
      h1=["Metro Star", "10 day trips within two hours of the city"], tags={"logo-h1"}),
]

# 3. "Site: Headline"
B = "https://techwire.io"
SITES["techwire: Site: Headline"] = [
    P(B + "/2024/05/01/chipmaker-beats-estimates/",
      "Techwire: Chipmaker beats estimates as AI demand surges",
      "Chipmaker beats estimates as AI demand surges",
      h1=["Chipmaker beats estimates as AI demand surges"]),
    P(B + "/2024/05/01/review-pixel-8a/",
      "Techwire: Review: Pixel 8a is the budget phone to beat",
      "Review: Pixel 8a is the budget phone to beat",
      h1=["Review: Pixel 8a is the budget phone to beat"]),
    P(B + "/2024/05/02/eu-fines-search-giant/",
      "Techwire: EU fines search giant €2.4bn over shopping results",
      "EU fines search giant €2.4bn over shopping results", tags={"no-h1"}),
    P(B + "/2024/05/02/fintech-startup-layoffs/",
      "Techwire: Startup lays off 20% of staff",
      "Fintech startup lays off 20% of its staff",
      h1=["Fintech startup lays off 20% of its staff"], ok=["Startup lays off 20% of staff"]),
    P(B + "/2024/05/03/interview-open-source-browser/",
      "Techwire: Interview: The engineer behind the open-source browser",
      "Interview: The engineer behind the open-source browser",
      h1=["Interview: The engineer behind the open-source browser"], site="Techwire"),
    P(B + "/2024/05/03/back-up-your-phone/",
      "Techwire: How to back up your phone before upgrading",
      "How to back up your phone before upgrading",
      h1=["Techwire"], h2="How to back up your phone before upgrading", tags={"logo-h1"}),
    P(B + "/tag/security/", "Techwire: Security", "Security", h1=["Security"]),
]

# 4. "Headline - Section - Site"
B = "https://www.riversidegazette.com"
SITES["gazette: Headline - Section - Site"] = [
    P(B + "/politics/mayors-race-tightens-early-voting/",
      "Mayor's race tightens as early voting begins - Politics - Riverside Gazette",
      "Mayor's race tightens as early voting begins",
      h1=["Mayor's race tightens as early voting begins"]),
    P(B + "/politics/school-board-later-start-times/",
      "School board approves later start times - Politics - Riverside Gazette",
      "School board approves later start times", tags={"no-h1"}),
    P(B + "/sports/eagles-claim-first-state-title/",
      "Eagles top Lions 21-14 to claim first state title - Sports - Riverside Gazette",
      "Eagles top Lions 21-14 to claim first state title",
      h1=["Eagles top Lions 21-14 to claim first state title"]),
    P(B + "/business/downtown-grocery-closes/",
      "Downtown grocery - a neighborhood fixture - closes after 50 years - Business - Riverside Gazette",
      "Downtown grocery - a neighborhood fixture - closes after 50 years",
      h1=["Downtown grocery - a neighborhood fixture - closes after 50 years"]),
    P(B + "/opinion/editorial-fix-the-bridge/",
      "Editorial: Fix the bridge before it fails - Opinion - Riverside Gazette",
      "Editorial: Fix the bridge before it fails",
      h1=["Editorial: Fix the bridge before it fails"]),
    P(B + "/community/obituaries/", "Obituaries - Community - Riverside Gazette",
      "Obituaries", h1=["Obituaries"]),
    P(B + "/sports/softball-roundup-riverside-sweeps/",
      "Softball roundup: Riverside sweeps doubleheader - Sports - Riverside Gazette",
      "Softball roundup: Riverside sweeps doubleheader", tags={"no-h1"}),
]

# 5. "Headline — Site", news with kickers
B = "https://www.worldbulletin.news"
SITES["bulletin: Headline — Site (kickers)"] = [
    P(B + "/europe/ukraine-grain-corridor-reopened",
      "Ukraine war: Kyiv says grain corridor reopened — World Bulletin",
      "Ukraine war: Kyiv says grain corridor reopened",
      h1=["Ukraine war: Kyiv says grain corridor reopened"]),
    P(B + "/europe/ukraine-drone-strike-odesa",
      "Ukraine war: Drone strike hits Odesa port — World Bulletin",
      "Ukraine war: Drone strike hits Odesa port",
      h1=["Ukraine war: Drone strike hits Odesa port"]),
    P(B + "/analysis/fed-no-hurry-to-cut",
      "Analysis: Why the Fed is in no hurry to cut rates — World Bulletin",
      "Analysis: Why the Fed is in no hurry to cut rates", tags={"no-h1"}),
    P(B + "/analysis/china-export-slump",
      "Analysis: China's export slump deepens — World Bulletin",
      "Analysis: China's export slump deepens",
      h1=["Analysis: China's export slump deepens"], og="Analysis: China's export slump deepens"),
    P(B + "/europe/russia-ukraine-prisoner-swap",
      "Ukraine war: Russia and Ukraine swap 200 prisoners — World Bulletin",
      "Ukraine war: Russia and Ukraine swap 200 prisoners", tags={"no-h1"}),
    P(B + "/live/ukraine-zelensky-front-line",
      "Ukraine war live: Zelensky visits front line — World Bulletin",
      "Ukraine war live: Zelensky visits front line",
      h1=["Ukraine war live: Zelensky visits front line"]),
    P(B + "/middle-east/gaza-aid-rafah",
      "Gaza: Aid trucks enter through Rafah crossing — World Bulletin",
      "Gaza: Aid trucks enter through Rafah crossing", tags={"no-h1"}),
]

# 6. product pages
B = "https://www.gadgetlab.com"
SITES["gadgetlab: Product - Review | Site"] = [
    P(B + "/reviews/acme-phone-15", "Acme Phone 15 - Review | GadgetLab",
      "Acme Phone 15 review: brighter screen, same battery",
      h1=["Acme Phone 15 review: brighter screen, same battery"], site="GadgetLab",
      ok=["Acme Phone 15 - Review"]),
    P(B + "/specs/acme-phone-15", "Acme Phone 15 - Specs | GadgetLab",
      "Acme Phone 15 specifications", h1=["Acme Phone 15 specifications"], site="GadgetLab",
      ok=["Acme Phone 15 - Specs"]),
    P(B + "/reviews/acme-phone-15-pro", "Acme Phone 15 Pro - Review | GadgetLab",
      "Acme Phone 15 Pro review", h1=["Acme Phone 15 Pro review"], site="GadgetLab",
      ok=["Acme Phone 15 Pro - Review"]),
    P(B + "/specs/acme-phone-15-pro", "Acme Phone 15 Pro - Specs | GadgetLab",
      "Acme Phone 15 Pro", h1=["Acme Phone 15 Pro"], site="GadgetLab",
      ok=["Acme Phone 15 Pro - Specs"]),
    P(B + "/compare/acme-phone-15-vs-zeta-z9", "Acme Phone 15 vs Zeta Z9 - Comparison | GadgetLab",
      "Acme Phone 15 vs Zeta Z9", h1=["Acme Phone 15 vs Zeta Z9"], site="GadgetLab",
      ok=["Acme Phone 15 vs Zeta Z9 - Comparison"]),
    P(B + "/news/zeta-z10-leak-periscope-camera",
      "Zeta Z10 leak reveals periscope camera | GadgetLab",
      "Zeta Z10 leak reveals periscope camera", h1=["Zeta Z10 leak reveals periscope camera"],
      og="Zeta Z10 leak reveals periscope camera", site="GadgetLab"),
    P(B + "/specs/zeta-z9", "Zeta Z9 - Specs | GadgetLab", "Zeta Z9 - Specs",
      site="GadgetLab", ok=["Zeta Z9"], tags={"no-h1"}),
    P(B + "/reviews/zeta-z9", "Zeta Z9 - Review | GadgetLab",
      "Zeta Z9 review: a flagship camera at a mid-range price",
      h1=["Zeta Z9 review: a flagship camera at a mid-range price"], site="GadgetLab",
      ok=["Zeta Z9 - Review"]),
]

# 7. Wikipedia (og:title as on the real site)
B = "https://en.wikipedia.org/wiki/"
def W(slug, name):
    return P(B + slug, f"{name} - Wikipedia", name, h1=[name], og=f"{name} - Wikipedia")
SITES["wikipedia: Article - Wikipedia"] = [
    W("Python_(programming_language)", "Python (programming language)"),
    W("Jean-Paul_Sartre", "Jean-Paul Sartre"),
    W("Mission:_Impossible_%E2%80%93_Fallout", "Mission: Impossible – Fallout"),
    W("2023%E2%80%9324_Premier_League", "2023–24 Premier League"),
    W("Spider-Man", "Spider-Man"),
    W("List_of_sovereign_states", "List of sovereign states"),
    W("Rock_paper_scissors", "Rock paper scissors"),
]

# 8. MediaWiki without og:title
B = "https://wiki.archlinux.org/title/"
def A(slug, name, h1=True):
    return P(B + slug, f"{name} - ArchWiki", name, h1=[name] if h1 else [],
             tags=set() if h1 else {"no-h1"})
SITES["archwiki: Page - ArchWiki"] = [
    A("Installation_guide", "Installation guide"),
    A("Pacman", "pacman"),
    A("Systemd-networkd", "systemd-networkd"),
    A("Pacman/Tips_and_tricks", "pacman/Tips and tricks"),
    A("Talk:Installation_guide", "Talk:Installation guide"),
    A("General_recommendations", "General recommendations", h1=False),
    A("Xorg_(Espa%C3%B1ol)", "Xorg (Español)"),
]

# 9. Stack Overflow
B = "https://stackoverflow.com/questions/"
def S(path, tag, q, og=False, h1=True):
    return P(B + path, f"{tag} - {q} - Stack Overflow", q, h1=[q] if h1 else [],
             og=q if og else None, site="Stack Overflow" if og else None,
             tags=set() if h1 else {"no-h1"})
SITES["stackoverflow: tag - Question - SO"] = [
    S("38987/how-do-i-merge-two-dictionaries-in-a-single-expression-in-python", "python",
      "How do I merge two dictionaries in a single expression in Python?", og=True),
    S("1143262/what-is-the-difference-between-const-int-const-int-const-and-int-const", "c++",
      "What is the difference between const int*, const int * const, and int const *?"),
    S("927358/how-do-i-undo-the-most-recent-local-commits-in-git", "git",
      "How do I undo the most recent local commits in Git?"),
    S("111102/how-do-javascript-closures-work", "javascript", "How do JavaScript closures work?",
      og=True),
    S("3437059/does-python-have-a-string-contains-substring-method", "python",
      "Does Python have a string 'contains' substring method?", h1=False),
    S("565620/difference-between-join-and-inner-join", "sql server",
      "Difference between JOIN and INNER JOIN"),
    P(B + "tagged/python", "Newest 'python' Questions - Stack Overflow",
      "Questions tagged [python]", h1=["Questions tagged [python]"],
      ok=["Newest 'python' Questions"]),
]

# 10. Sphinx docs
B = "https://docs.python.org/3/"
def D(path, name, h1=None):
    return P(B + path, f"{name} — Python 3.12.2 documentation", h1 or name, h1=[SL(h1 or name)])
SITES["pydocs: Page — Project 3.12 documentation"] = [
    D("library/os.html", "os — Miscellaneous operating system interfaces"),
    D("library/json.html", "json — JSON encoder and decoder"),
    D("tutorial/index.html", "The Python Tutorial"),
    D("tutorial/introduction.html", "3. An Informal Introduction to Python"),
    D("whatsnew/3.12.html", "What’s New In Python 3.12"),
    D("library/functions.html", "Built-in Functions"),
    D("glossary.html", "Glossary"),
]
B = "https://flaskish.readthedocs.io/en/3.2.x/"
def F(path, name):
    return P(B + path, f"{name} — Flaskish Documentation (3.2.x)", name, h1=[SL(name)])
SITES["flaskish: Page — Project Documentation (3.2.x)"] = [
    F("", "Welcome to Flaskish"),
    F("installation/", "Installation"),
    F("quickstart/", "Quickstart"),
    F("api/", "API"),
    F("patterns/sqlite3/", "Using SQLite 3 with Flaskish"),
    F("config/", "Configuration Handling"),
]

# 11. forum
B = "https://www.trailtalk.org"
SITES["trailtalk: Thread - Page N - Forum"] = [
    P(B + "/threads/best-budget-tent-for-two-people.4521/",
      "Best budget tent for two people? - TrailTalk Forums", "Best budget tent for two people?",
      h1=["Best budget tent for two people?"]),
    P(B + "/threads/best-budget-tent-for-two-people.4521/page-2",
      "Best budget tent for two people? - Page 2 - TrailTalk Forums",
      "Best budget tent for two people?", h1=["Best budget tent for two people?"]),
    P(B + "/threads/best-budget-tent-for-two-people.4521/page-3",
      "Best budget tent for two people? - Page 3 - TrailTalk Forums",
      "Best budget tent for two people?", h1=["TrailTalk Forums"], tags={"logo-h1"}),
    P(B + "/threads/water-filter-sawyer-vs-katadyn.4533/",
      "Water filter: Sawyer Squeeze vs Katadyn BeFree - TrailTalk Forums",
      "Water filter: Sawyer Squeeze vs Katadyn BeFree",
      h1=["Water filter: Sawyer Squeeze vs Katadyn BeFree"]),
    P(B + "/forums/gear-talk.12/", "Gear Talk - TrailTalk Forums", "Gear Talk", h1=["Gear Talk"]),
    P(B + "/threads/pct-2024-permit-thread.4540/page-12",
      "PCT 2024 permit thread - Page 12 - TrailTalk Forums", "PCT 2024 permit thread",
      h1=["TrailTalk Forums"], tags={"logo-h1"}),
    P(B + "/threads/trip-report-first-solo-in-the-enchantments.4551/",
      "Trip report: first solo in the Enchantments - TrailTalk Forums",
      "Trip report: first solo in the Enchantments",
      h1=["Trip report: first solo in the Enchantments"]),
]

# 12. WordPress recipe blog, Yoast og:title with the site name, duplicate URLs
B = "https://www.sallysbakingnook.com"
N = "Sally's Baking Nook"
SITES["baking blog: Headline - Site (+dups, archives)"] = [
    P(B + "/easy-banana-bread/", f"Easy Banana Bread Recipe - {N}", "Easy Banana Bread",
      h1=["Easy Banana Bread"], og=f"Easy Banana Bread Recipe - {N}", site=N,
      ok=["Easy Banana Bread Recipe"]),
    P(B + "/easy-banana-bread/?utm_source=pinterest", f"Easy Banana Bread Recipe - {N}",
      "Easy Banana Bread", h1=["Easy Banana Bread"], og=f"Easy Banana Bread Recipe - {N}",
      site=N, ok=["Easy Banana Bread Recipe"], tags={"dup-url"}),
    P(B + "/category/desserts/", f"Desserts Archives - {N}", "Desserts", h1=["Desserts"],
      ok=["Desserts Archives"]),
    P(B + "/category/desserts/page/2/", f"Desserts Archives - Page 2 of 14 - {N}", "Desserts",
      h1=["Desserts"], ok=["Desserts Archives"]),
    P(B + "/best-chocolate-chip-cookies/", f"The Best Chocolate Chip Cookies - {N}",
      "The Best Chocolate Chip Cookies", h1=["The Best Chocolate Chip Cookies"]),
    P(B + "/best-chocolate-chip-cookies/comment-page-2/", f"The Best Chocolate Chip Cookies - {N}",
      "The Best Chocolate Chip Cookies", h1=["The Best Chocolate Chip Cookies"], tags={"dup-url"}),
    P(B + "/about/", f"About Sally - {N}", "About Sally", h1=["About Sally"]),
]

# 13. every page titled with the site's name; headline in <h1>
B = "https://www.harbortownlibrary.org"
N = "Harbor Town Public Library"
SITES["library: same <title> on every page"] = [
    P(B + "/", N, "Welcome to Harbor Town Public Library",
      h1=["Welcome to Harbor Town Public Library"]),
    P(B + "/events/spring-book-sale", N, "Spring Book Sale", h1=[N, "Spring Book Sale"],
      tags={"logo-h1"}),
    P(B + "/services/library-cards", N, "Get a Library Card", h1=["Get a Library Card"]),
    P(B + "/hours", N, "Hours & Locations", h1=[N], h2="Hours & Locations", tags={"logo-h1"}),
    P(B + "/events/author-talk-maria-lopez", N, "Author Talk: Maria Lopez on 'The River Years'",
      h1=[N, "Author Talk: Maria Lopez on 'The River Years'"], tags={"logo-h1"}),
    P(B + "/kids/storytime", N, "Storytime for Toddlers", h1=["Storytime for Toddlers"]),
    P(B + "/events/spring-book-sale?ref=home", N, "Spring Book Sale", h1=[N, "Spring Book Sale"],
      tags={"logo-h1", "dup-url"}),
]

# 14. Chinese CMS "标题_频道_网站名"
B = "https://finance.huaxiacaijing.com.cn"
SITES["zh: 标题_频道_网站名"] = [
    P(B + "/a/20240312/001.html", "央行宣布下调存款准备金率0.5个百分点_宏观经济_华夏财经网",
      "央行宣布下调存款准备金率0.5个百分点", h1=["央行宣布下调存款准备金率0.5个百分点"]),
    P(B + "/a/20240312/002.html", "A股三大指数集体收涨 成交额突破万亿_股市_华夏财经网",
      "A股三大指数集体收涨 成交额突破万亿", h1=["A股三大指数集体收涨 成交额突破万亿"]),
    P(B + "/a/20240313/003.html", "新能源汽车3月销量同比增长35%_产业_华夏财经网",
      "新能源汽车3月销量同比增长35%", tags={"no-h1"}),
    P(B + "/a/20240313/004.html", "专家解读：房地产政策将如何影响楼市_宏观经济_华夏财经网",
      "专家解读：房地产政策将如何影响楼市", h1=["专家解读：房地产政策将如何影响楼市"]),
    P(B + "/list/macro.html", "宏观经济_华夏财经网", "宏观经济", tags={"no-h1"}),
    P(B + "/a/20240314/005.html", "国内油价迎年内第三次上调_宏观经济_华夏财经网",
      "国内油价迎年内第三次上调 92号汽油每升涨0.15元",
      h1=["国内油价迎年内第三次上调 92号汽油每升涨0.15元"], ok=["国内油价迎年内第三次上调"]),
    P(B + "/a/20240314/006.html", "黄金价格创历史新高_华夏财经网", "黄金价格创历史新高",
      h1=["黄金价格创历史新高"]),
]

# 15. Chinese "标题--频道--网站"
B = "http://www.dongfangnews.cn"
SITES["zh: 标题--频道--网站"] = [
    P(B + "/n1/2024/0312/c1004-40001.html", "国家统计局：2月CPI同比上涨0.7%--财经--东方新闻网",
      "国家统计局：2月CPI同比上涨0.7%", h1=["国家统计局：2月CPI同比上涨0.7%"]),
    P(B + "/n1/2024/0312/c1004-40002.html", "多地出台措施支持小微企业融资--财经--东方新闻网",
      "多地出台措施支持小微企业融资", tags={"no-h1"}),
    P(B + "/n1/2024/0312/c1001-40003.html", "全国两会在京闭幕--时政--东方新闻网",
      "全国两会在京闭幕", h1=["全国两会在京闭幕"]),
    P(B + "/n1/2024/0313/c1003-40004.html", "评论：让科技创新成为发展新引擎--观点--东方新闻网",
      "评论：让科技创新成为发展新引擎", h1=["评论：让科技创新成为发展新引擎"]),
    P(B + "/GB/1004/index.html", "财经--东方新闻网", "财经", tags={"no-h1"}),
    P(B + "/n1/2024/0313/c1008-40005.html", "春运期间全国铁路发送旅客4.8亿人次--社会--东方新闻网",
      "春运期间全国铁路发送旅客4.8亿人次", h1=["春运期间全国铁路发送旅客4.8亿人次"]),
    P(B + "/n1/2024/0314/c1001-40006.html", "图解：一图读懂政府工作报告--时政--东方新闻网",
      "图解：一图读懂政府工作报告", tags={"no-h1"}),
]

# 16. Japanese "記事タイトル｜サイト名"
B = "https://www.nikkei-online.jp"
N = "日本経済オンライン"
SITES["ja: 記事｜サイト名"] = [
    P(B + "/article/DGXZQO001", f"日銀、マイナス金利解除を決定　17年ぶり利上げ｜{N}",
      "日銀、マイナス金利解除を決定　17年ぶり利上げ", h1=["日銀、マイナス金利解除を決定　17年ぶり利上げ"],
      og="日銀、マイナス金利解除を決定　17年ぶり利上げ", site=N),
    P(B + "/article/DGXZQO002", f"トヨタ、過去最高益　円安が追い風｜{N}",
      "トヨタ、過去最高益　円安が追い風", h1=["トヨタ、過去最高益　円安が追い風"]),
    P(B + "/article/DGXZQO003", f"【解説】新NISAで何が変わる？｜{N}", "【解説】新NISAで何が変わる？",
      h1=["新NISAで何が変わる？"], ok=["新NISAで何が変わる？"]),
    P(B + "/article/DGXZQO004", f"春闘、賃上げ率5%超え　33年ぶり高水準｜{N}",
      "春闘、賃上げ率5%超え　33年ぶり高水準", tags={"no-h1"}),
    P(B + "/markets/", f"マーケット｜{N}", "マーケット", h1=["マーケット"]),
    P(B + "/article/DGXZQO005", f"東証プライム、終値で最高値を更新｜マーケット｜{N}",
      "東証プライム、終値で最高値を更新", h1=["東証プライム、終値で最高値を更新"]),
    P(B + "/article/DGXZQO006", f"半導体大手、熊本に第2工場　2027年稼働へ｜{N}",
      "半導体大手、熊本に第2工場　2027年稼働へ", h1=["半導体大手、熊本に第2工場　2027年稼働へ"]),
]

# 17. Japanese blog "記事 - サイト名"
B = "https://kurashi-memo.hatenablog.jp"
N = "暮らしのメモ帳"
SITES["ja: 記事 - サイト名 (blog)"] = [
    P(B + "/entry/2024/03/01/tsukurioki", f"作り置きおかず10品　週末2時間で完成 - {N}",
      "作り置きおかず10品　週末2時間で完成", h1=["作り置きおかず10品　週末2時間で完成"]),
    P(B + "/entry/2024/03/05/reizouko", f"100均グッズで冷蔵庫をすっきり整理 - {N}",
      "100均グッズで冷蔵庫をすっきり整理", h1=["100均グッズで冷蔵庫をすっきり整理"]),
    P(B + "/entry/2024/03/09/kaden", f"【2024年版】買ってよかったキッチン家電5選 - {N}",
      "【2024年版】買ってよかったキッチン家電5選", h1=[N], h2="【2024年版】買ってよかったキッチン家電5選",
      tags={"logo-h1"}),
    P(B + "/archive/category/収納", f"カテゴリー：収納 - {N}", "収納", h1=["収納"],
      ok=["カテゴリー：収納"]),
    P(B + "/about", f"プロフィール - {N}", "プロフィール", h1=["プロフィール"]),
    P(B + "/entry/2024/03/15/umeboshi", f"梅干しの漬け方 - 初心者でも失敗しない - {N}",
      "梅干しの漬け方 - 初心者でも失敗しない", h1=["梅干しの漬け方 - 初心者でも失敗しない"]),
    P(B + "/entry/2024/03/01/tsukurioki?amp=1", f"作り置きおかず10品　週末2時間で完成 - {N}",
      "作り置きおかず10品　週末2時間で完成", h1=["作り置きおかず10品　週末2時間で完成"], tags={"dup-url"}),
]

# 18. phone database: no site name in <title>, "Model - Page kind"
B = "https://www.phonearena-db.com"
SITES["phonedb: Model - Full phone specifications"] = [
    P(B + "/samsung_galaxy_s24_ultra-12771.php", "Samsung Galaxy S24 Ultra - Full phone specifications",
      "Samsung Galaxy S24 Ultra", h1=["Samsung Galaxy S24 Ultra"],
      ok=["Samsung Galaxy S24 Ultra - Full phone specifications"]),
    P(B + "/samsung_galaxy_s24_ultra-reviews-12771.php",
      "Samsung Galaxy S24 Ultra - User opinions and reviews",
      "Samsung Galaxy S24 Ultra - User opinions and reviews", h1=["Samsung Galaxy S24 Ultra"],
      ok=["Samsung Galaxy S24 Ultra"]),
    P(B + "/samsung_galaxy_s24_ultra-reviews-12771p2.php",
      "Samsung Galaxy S24 Ultra - User opinions and reviews - page 2",
      "Samsung Galaxy S24 Ultra - User opinions and reviews", h1=["Samsung Galaxy S24 Ultra"],
      ok=["Samsung Galaxy S24 Ultra"]),
    P(B + "/samsung_galaxy_s24-12773.php", "Samsung Galaxy S24 - Full phone specifications",
      "Samsung Galaxy S24", h1=["Samsung Galaxy S24"],
      ok=["Samsung Galaxy S24 - Full phone specifications"]),
    P(B + "/samsung_galaxy_s24_ultra-review-2670.php",
      "Samsung Galaxy S24 Ultra review: Design, build quality, handling",
      "Samsung Galaxy S24 Ultra review", h1=["Samsung Galaxy S24 Ultra review"],
      h2="Design, build quality, handling",
      ok=["Samsung Galaxy S24 Ultra review: Design, build quality, handling"]),
    P(B + "/samsung_galaxy_s24_ultra-review-2670p3.php",
      "Samsung Galaxy S24 Ultra review: Display, battery life",
      "Samsung Galaxy S24 Ultra review: Display, battery life", tags={"no-h1"},
      ok=["Samsung Galaxy S24 Ultra review"]),
    P(B + "/apple_iphone_15_pro_max-12548.php", "Apple iPhone 15 Pro Max - Full phone specifications",
      "Apple iPhone 15 Pro Max", h1=["Apple iPhone 15 Pro Max"],
      ok=["Apple iPhone 15 Pro Max - Full phone specifications"]),
]

# 19. "Headline - Site" news with "Opinion | " rubric prefixes
B = "https://www.capitalledger.com"
N = "The Capital Ledger"
SITES["ledger: [Rubric | ]Headline - Site"] = [
    P(B + "/2024/03/14/us/politics/senate-stopgap-bill.html",
      f"Senate passes stopgap bill to avert shutdown - {N}",
      "Senate passes stopgap bill to avert shutdown", h1=["Senate passes stopgap bill to avert shutdown"]),
    P(B + "/2024/03/14/opinion/filibuster-outlived-purpose.html",
      f"Opinion | The filibuster has outlived its purpose - {N}",
      "The filibuster has outlived its purpose", h1=["The filibuster has outlived its purpose"],
      ok=["Opinion | The filibuster has outlived its purpose"]),
    P(B + "/2024/03/14/opinion/cities-parking.html",
      f"Opinion | Why cities should stop building parking - {N}",
      "Why cities should stop building parking", tags={"no-h1"},
      ok=["Opinion | Why cities should stop building parking"]),
    P(B + "/2024/03/14/us/hurricane-florida-landfall.html",
      f"Live Updates: Storm makes landfall in Florida - {N}",
      "Hurricane Milton makes landfall in Florida", h1=["Hurricane Milton makes landfall in Florida"],
      ok=["Live Updates: Storm makes landfall in Florida"]),
    P(B + "/games/wordle-hint-answer-march-14.html", f"Wordle hint and answer for March 14 - {N}",
      "Wordle hint and answer for March 14", h1=["Wordle hint and answer for March 14"]),
    P(B + "/games/wordle-hint-answer-march-15.html", f"Wordle hint and answer for March 15 - {N}",
      "Wordle hint and answer for March 15", tags={"no-h1"}),
    P(B + "/2024/03/15/briefing/the-morning-economy.html",
      f"The Morning: A bumpy road for the economy - {N}",
      "The Morning: A bumpy road for the economy", h1=["A bumpy road for the economy"],
      ok=["A bumpy road for the economy"]),
]

# 20. blogging platform: "Title | by Author | Platform"
B = "https://medium.com"
SITES["medium: Title | by Author | Platform"] = [
    P(B + "/@jane.doe/why-i-stopped-using-orms-3f2a1b", "Why I Stopped Using ORMs | by Jane Doe | Medium",
      "Why I Stopped Using ORMs", h1=["Why I Stopped Using ORMs"], og="Why I Stopped Using ORMs",
      site="Medium"),
    P(B + "/@raj.patel/a-gentle-introduction-to-vector-databases-9c1d2e",
      "A Gentle Introduction to Vector Databases | by Raj Patel | Medium",
      "A Gentle Introduction to Vector Databases", h1=["A Gentle Introduction to Vector Databases"]),
    P(B + "/@jane.doe/understanding-rust-lifetimes-77ab12",
      "Understanding Rust Lifetimes. A practical guide with examples | by Jane Doe | Medium",
      "Understanding Rust Lifetimes", h1=["Understanding Rust Lifetimes"],
      h2="A practical guide with examples",
      ok=["Understanding Rust Lifetimes. A practical guide with examples"]),
    P(B + "/@raj.patel/10-python-tricks-5e6f7a",
      "10 Python Tricks I Wish I Knew Earlier | by Raj Patel | Medium",
      "10 Python Tricks I Wish I Knew Earlier", tags={"no-h1"}),
    P(B + "/@jane.doe", "Jane Doe – Medium", "Jane Doe", h1=["Jane Doe"]),
    P(B + "/@sam.lee/the-hidden-cost-of-microservices-1a2b3c",
      "The Hidden Cost of Microservices | by Sam Lee | Medium",
      "The Hidden Cost of Microservices", h1=["The Hidden Cost of Microservices"]),
    P(B + "/@jane.doe/why-i-stopped-using-orms-3f2a1b?source=rss",
      "Why I Stopped Using ORMs | by Jane Doe | Medium", "Why I Stopped Using ORMs",
      h1=["Why I Stopped Using ORMs"], og="Why I Stopped Using ORMs", site="Medium", tags={"dup-url"}),
]

# 21. shop: "Site: Product : Category"
B = "https://www.amazon.com"
SITES["shop: Amazon.com: Product : Category"] = [
    P(B + "/Anker-Charger-3-Port-Foldable/dp/B0BXYZ1234",
      "Amazon.com: Anker USB C Charger, 3-Port 65W Fast Charger : Electronics",
      "Anker USB C Charger, 3-Port 65W Fast Charger", h1=["Anker USB C Charger, 3-Port 65W Fast Charger"]),
    P(B + "/Midnight-Library-Novel-Matt-Haig/dp/0525559477",
      "Amazon.com: The Midnight Library: A Novel: 9780525559474: Haig, Matt: Books",
      "The Midnight Library: A Novel", h1=["The Midnight Library: A Novel"]),
    P(B + "/Kindle-Paperwhite-16-GB/dp/B08KTZ8249",
      "Amazon.com: Kindle Paperwhite (16 GB) : Amazon Devices & Accessories",
      "Kindle Paperwhite (16 GB)", h1=["Kindle Paperwhite (16 GB)"]),
    P(B + "/Ninja-AF101-Fryer-Black/dp/B07FDJMC9Q",
      "Amazon.com: Ninja AF101 Air Fryer, 4 Qt, Black : Home & Kitchen",
      "Ninja AF101 Air Fryer, 4 Qt, Black", tags={"no-h1"}),
    P(B + "/Dune-Frank-Herbert/dp/0441172717",
      "Amazon.com: Dune: 9780441172719: Herbert, Frank: Books", "Dune", h1=["Dune"]),
    P(B + "/Anker-Charger-3-Port-Foldable/dp/B0BXYZ1234/ref=sr_1_3?keywords=usb+c+charger",
      "Amazon.com: Anker USB C Charger, 3-Port 65W Fast Charger : Electronics",
      "Anker USB C Charger, 3-Port 65W Fast Charger",
      h1=["Anker USB C Charger, 3-Port 65W Fast Charger"], tags={"dup-url"}),
]

# 22. TV database: show name shared by consecutive pages
B = "https://www.tvdigest.com"
N = "TV Digest"
SITES["tvdigest: Show - Season - Episode | Site"] = [
    P(B + "/shows/the-bear", f"The Bear | {N}", "The Bear", h1=["The Bear"]),
    P(B + "/shows/the-bear/season-3", f"The Bear - Season 3 | {N}", "The Bear - Season 3",
      h1=["The Bear"], h2="Season 3", ok=["The Bear", "Season 3"]),
    P(B + "/shows/the-bear/season-3/episode-2", f"The Bear - Season 3 - Episode 2: Next | {N}",
      "The Bear - Season 3 - Episode 2: Next", h1=["Episode 2: Next"], ok=["Episode 2: Next"]),
    P(B + "/shows/the-bear/season-3/episode-3", f"The Bear - Season 3 - Episode 3: Doors | {N}",
      "The Bear - Season 3 - Episode 3: Doors", tags={"no-h1"}, ok=["Episode 3: Doors"]),
    P(B + "/shows/shogun", f"Shōgun | {N}", "Shōgun", h1=["Shōgun"]),
    P(B + "/shows/shogun/season-1/episode-8",
      f"Shōgun - Season 1 - Episode 8: The Abyss of Life | {N}",
      "Shōgun - Season 1 - Episode 8: The Abyss of Life", h1=["Episode 8: The Abyss of Life"],
      ok=["Episode 8: The Abyss of Life"]),
    P(B + "/features/best-tv-shows-2024", f"Best TV shows of 2024 so far | {N}",
      "Best TV shows of 2024 so far", h1=["Best TV shows of 2024 so far"]),
]
