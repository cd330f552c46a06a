"""Generate the built-in demo web (``python -m crawler.demo.build [--out DIR]``).

A small offline test web in the format of ``shared/testweb/README.md``: ``web.warc.gz``,
``labels.csv``, ``seeds.txt``, plus ``topic.toml`` (the renewable-energy topic to crawl for).
All text was written for this project.  The output is deterministic: fixed dates, record ids
derived from URLs, fixed random seeds.

Three sites on the reserved ``.test`` TLD:

- ``www.sunwind.test`` — *SunWind Review*, an English renewable-energy magazine (HTML5, UTF-8):
  22 articles, two section pages, a robots-disallowed draft, a 301, a PDF, a PNG, a recorded 404
  and a link to an unrecorded page.
- ``www.nengyuan.test`` — 绿色能源网, a Chinese energy portal with a lifestyle channel (cooking,
  football): new pages in UTF-8, an older news archive in GBK (``charset=gbk`` header and
  ``<meta charset=gb2312>``), and one mislabelled page (GBK bytes, header says UTF-8).
- ``www.weekend.test`` — *Weekend Table & Terrace*, an English cooking and football site with
  two bridge pages (a solar oven, a stadium's solar roof) and an events calendar (a small trap:
  month pages with prev/next links, the months past either end recorded as 404).

Seeds are the two mixed portals, so a crawler has to find its way to the energy pages.
Labels use ``subject.Energy.*`` (the topic), ``subject.Food.Cooking`` and
``subject.Sport.Football``; home, section, about, draft, basket and calendar pages have none.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import html
import io
import random
import struct
import uuid
import zlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

HERE = Path(__file__).resolve().parent
S = "http://www.sunwind.test"
N = "http://www.nengyuan.test"
W = "http://www.weekend.test"
SEEDS = [f"{N}/", f"{W}/"]
START = datetime(2024, 3, 5, 9, 0, 0, tzinfo=timezone.utc)
SERVERS = {S: "nginx/1.24.0", N: "Apache/2.2.15 (CentOS)", W: "Apache/2.4.58 (Debian)"}

SOLAR, WIND, HYDRO = "subject.Energy.Solar", "subject.Energy.Wind", "subject.Energy.Hydro"
GEO, BIO = "subject.Energy.Geothermal", "subject.Energy.Bioenergy"
STORAGE, POLICY = "subject.Energy.Storage", "subject.Energy.Policy"
COOKING, FOOTBALL = "subject.Food.Cooking", "subject.Sport.Football"

# --------------------------------------------------------------------------------------------
# Sentence pools (shuffled per article with a seed derived from its URL)
# --------------------------------------------------------------------------------------------

POOLS: dict[str, list[str]] = {
    "solar": [
        "A typical silicon panel converts between eighteen and twenty-two percent of the sunlight that reaches it into electricity.",
        "Output depends less on heat than on light: panels actually lose a little efficiency on very hot days.",
        "An inverter turns the direct current from the panels into the alternating current used by household appliances.",
        "Panel prices have fallen by roughly ninety percent over the past decade, which changed the economics of almost every project.",
        "Orientation matters, but a roof facing east or west still produces around four fifths of the energy of a south-facing one.",
        "Shading from a single chimney or tree can pull down the output of a whole string of panels unless optimisers are fitted.",
        "Most manufacturers guarantee that their modules will still deliver eighty percent of their rated power after twenty-five years.",
        "Photovoltaic output peaks around midday, which is why solar pairs naturally with storage and with demand that can be shifted.",
        "Installers usually size a system from a year of electricity bills rather than from the area of the roof.",
        "Dust and bird droppings reduce yield, yet in rainy climates the weather does most of the cleaning for free.",
        "Bifacial modules collect light on both sides and gain extra yield where the ground below reflects well, such as over sand or snow.",
        "Grid operators now treat large solar parks as flexible plants that can be curtailed or asked to support the voltage.",
    ],
    "wind": [
        "The power in the wind rises with the cube of its speed, so a site with slightly stronger winds can produce far more energy.",
        "Modern turbines start turning at about three metres per second and shut down for safety in storms above twenty-five.",
        "Longer blades sweep a larger area, which is the main reason each new generation of turbines produces more electricity.",
        "A turbine's capacity factor, the share of its maximum output it actually delivers over a year, is typically thirty to fifty percent.",
        "Wind farms are spaced so that turbines do not sit in each other's wake, where the air is slower and more turbulent.",
        "Gearboxes were once the most frequent cause of breakdowns, and many newer designs drive the generator directly.",
        "Operators use sensors in the nacelle to spot vibration, oil temperature and blade damage before they become failures.",
        "Winds are usually stronger in winter and at night, which complements the daily and seasonal pattern of solar power.",
        "Planning permission remains a bottleneck in many countries, often taking longer than building the wind farm itself.",
        "Birds and bats are protected by careful siting, and some farms pause turbines during peak migration periods.",
        "Transmission lines are often the limiting factor, because the windiest places are rarely close to large cities.",
        "Every turbine is connected to a control room that can adjust blade pitch within seconds to follow grid instructions.",
    ],
    "water": [
        "Hydropower still produces more electricity worldwide than all other renewable sources combined.",
        "The energy available from a river depends on two things: the volume of water flowing and the height it falls.",
        "Reservoirs allow operators to store water for months and release it when demand and prices are highest.",
        "Large dams can flood valleys, displace communities and block the migration of fish, so new projects face close scrutiny.",
        "Fish ladders and bypass channels help salmon and eels move past weirs and turbines.",
        "Water turbines are among the most efficient machines ever built, converting over ninety percent of the water's energy.",
        "Drought years reduce hydro output sharply, a risk that grows as rainfall patterns change.",
        "Many old mill sites could be fitted with small turbines, although the paperwork can cost more than the equipment.",
        "Tides are entirely predictable years in advance, which makes marine energy attractive to grid planners.",
        "Seawater is corrosive and storms are violent, so marine machines must be built far more robustly than river turbines.",
        "Hydro plants can ramp from standstill to full power in minutes, which makes them valuable for balancing the grid.",
    ],
    "heat": [
        "A few metres below the surface the ground stays at a nearly constant temperature all year round.",
        "A heat pump moves heat rather than generating it, delivering three to four units of heat for every unit of electricity.",
        "Geothermal power stations need hot rock or hot water at depths that drilling can reach at a reasonable cost.",
        "Iceland, Kenya, Indonesia and New Zealand all generate a large share of their electricity from underground heat.",
        "Boreholes for ground-source heat pumps are usually between fifty and two hundred metres deep.",
        "Unlike wind and solar, geothermal plants produce a steady output regardless of the weather.",
        "Drilling is the expensive and risky part of any geothermal project, because a dry well earns nothing.",
        "Enhanced geothermal systems pump water through fractured hot rock to create a reservoir where none existed.",
        "Spent geothermal fluids are normally pumped back underground to keep the reservoir pressure up.",
        "District heating networks can carry geothermal heat to thousands of homes through insulated pipes.",
    ],
    "bio": [
        "Bioenergy covers any fuel made from recently living material, from wood pellets to gas from manure.",
        "An anaerobic digester is a sealed tank in which bacteria break down organic waste and release methane-rich biogas.",
        "The leftover digestate is a useful fertiliser, closing the nutrient loop on the farm.",
        "Biofuels are only as sustainable as the land and the feedstock behind them.",
        "Crops grown for fuel can compete with food production, which is why waste-based feedstocks are preferred.",
        "Used cooking oil and animal fats are already turned into diesel substitutes at industrial scale.",
        "Biogas can be burned in an engine to produce electricity and heat, or upgraded to biomethane and injected into the gas grid.",
        "Capturing methane from slurry also prevents a potent greenhouse gas from escaping into the air.",
        "Aviation is hard to electrify, so liquid fuels from biomass are one of the few near-term options for cutting its emissions.",
        "Certification schemes track each batch of feedstock to show that no forest was cleared to grow it.",
    ],
    "grid": [
        "Energy storage lets a grid use solar and wind power at times when the sun is down or the air is still.",
        "Lithium-ion batteries dominate new installations because their prices fell alongside the electric car market.",
        "A battery's power rating says how fast it can deliver energy, while its capacity says for how long.",
        "Most grid batteries today are built to deliver full power for two to four hours.",
        "Batteries earn money by buying electricity when it is cheap and selling it back when it is expensive.",
        "They also respond within milliseconds to stabilise the grid frequency when a large power station trips.",
        "Green hydrogen is made by splitting water with electricity from renewable sources in an electrolyser.",
        "Hydrogen could store energy for weeks or months, something batteries cannot do economically.",
        "Each conversion step loses energy, so turning electricity into hydrogen and back returns well under half of it.",
        "Steelmaking, fertiliser production and shipping are seen as the most promising early markets for green hydrogen.",
        "Battery cells degrade with every cycle, and operators plan to replace or augment them after ten to fifteen years.",
        "Fire safety codes for large battery installations have been tightened after several incidents.",
    ],
    "policy": [
        "Governments have used guaranteed prices, tax credits and quotas to kick-start renewable power.",
        "A feed-in tariff pays a fixed price for every kilowatt-hour fed into the grid for a set number of years.",
        "Auctions ask developers to compete on price, and they have driven the cost of new projects sharply down.",
        "Carbon pricing makes fossil generation more expensive and therefore improves the case for clean alternatives.",
        "Stable rules matter as much as generous ones, because investors fear sudden retroactive changes.",
        "Grid connection queues have become one of the main obstacles to new projects in many countries.",
        "Community ownership schemes let local residents share in the profits of nearby wind and solar farms.",
        "Net metering allows households to offset the electricity they export against the electricity they import.",
        "International targets are translated into national plans that set a share of renewables for each year.",
        "Subsidies are usually designed to shrink over time as the technologies become cheaper.",
    ],
    "energy": [
        "Renewable sources now supply more than a quarter of the world's electricity, and the share is rising every year.",
        "The cheapest new electricity in most countries now comes from solar and wind farms.",
        "Cutting emissions from power generation is the first step towards cleaner transport and heating.",
        "Experts agree that a mix of technologies is more reliable than relying on any single source.",
        "Local jobs in installation and maintenance are one of the benefits most often cited by supporters.",
        "Critics point to land use and the intermittency of supply, problems that engineers are steadily addressing.",
        "Public opinion surveys consistently show strong support for renewable energy, even among sceptics of climate policy.",
        "The next decade will be decided as much by grids and permits as by new technology.",
    ],
    "cooking": [
        "Good ingredients need less help, so buy what is in season and cook it simply.",
        "Let meat rest for at least ten minutes after it leaves the oven so the juices settle.",
        "Salt the water for pasta generously; it should taste pleasantly of the sea.",
        "A heavy cast-iron pan holds heat well and gives a better crust than a thin one.",
        "Toast whole spices in a dry pan for a minute before grinding them to release their aroma.",
        "Taste as you go and adjust the seasoning at the end rather than all at the start.",
        "A squeeze of lemon or a splash of vinegar often lifts a dish that tastes flat.",
        "Chop onions evenly so that they soften at the same rate.",
        "Bread dough is ready when it springs back slowly after a gentle poke.",
        "Keep a jar of stock in the freezer; it turns leftovers into a proper meal.",
        "Fresh herbs go in at the end, woody herbs such as rosemary and thyme at the start.",
        "Weighing ingredients gives more reliable results than using cups, especially for baking.",
    ],
    "football": [
        "The home side pressed high from the first whistle and forced a string of early mistakes.",
        "A goal just before half-time changed the mood in the dressing room.",
        "The midfield trio controlled possession but struggled to create clear chances.",
        "Supporters sang throughout the second half despite the rain.",
        "The manager made a double substitution on the hour, and both players made an immediate impact.",
        "Set pieces decided the match, as they so often do in tight derbies.",
        "The young full-back was named man of the match after a tireless performance.",
        "The visiting goalkeeper made three fine saves to keep the score respectable.",
        "League tables rarely lie by the end of the season, but this one is still wide open.",
        "The academy has produced four first-team players in the last three seasons.",
        "Pressing without the ball requires fitness and a clear understanding between the forwards.",
        "Tickets for the return fixture sold out within an hour.",
    ],
    "solar_zh": [
        "光伏发电利用半导体材料的光生伏特效应，把太阳光直接转换为电能。",
        "目前主流的晶硅组件转换效率在百分之二十左右，实验室中的新型电池效率更高。",
        "逆变器负责把组件产生的直流电转换为可以并网的交流电。",
        "过去十年，光伏组件价格下降了约九成，光伏已成为很多地区最便宜的电源之一。",
        "屋顶朝向和遮挡情况会直接影响发电量，安装前需要进行现场勘察。",
        "分布式光伏就近发电、就近使用，可以减少输电损耗。",
        "组件表面的灰尘会降低发电效率，在干旱少雨的地区需要定期清洗。",
        "光伏出力在中午达到高峰，因此常与储能系统配合使用。",
        "大型地面电站多建在西北地区，那里日照资源丰富、土地成本较低。",
        "太阳能热水器利用集热管吸收热量，是最早走进普通家庭的可再生能源产品之一。",
        "光伏组件的质保期一般为二十五年，期间功率衰减通常不超过两成。",
    ],
    "wind_zh": [
        "风能是空气流动产生的动能，风速越大，风机能够捕获的能量越多。",
        "风电机组一般在每秒三米左右的风速下启动，遇到大风时会自动停机保护。",
        "叶片越长，扫风面积越大，单台机组的发电量也就越高。",
        "海上风速高且稳定，不占用陆地资源，是风电发展的重要方向。",
        "风电场需要合理布置机位，避免前排风机的尾流影响后排机组。",
        "运维人员通过在线监测系统掌握齿轮箱温度、振动和叶片状态。",
        "冬季和夜间风力往往更强，这与光伏的出力特点形成互补。",
        "部分地区曾出现弃风现象，主要原因是本地消纳能力和外送通道不足。",
        "特高压输电线路把西北的风电送往东部负荷中心。",
        "风电机组的设计寿命一般为二十年到二十五年。",
        "低风速风机的出现，使中东部地区也能够开发风电项目。",
    ],
    "other_zh": [
        "水力发电技术成熟、运行灵活，是我国装机规模最大的可再生能源。",
        "水电站的发电能力取决于水流量和落差两个因素。",
        "小水电开发必须兼顾河流生态，保证下游的生态流量。",
        "生物质能来源于农林废弃物、畜禽粪便和生活垃圾等有机物。",
        "秸秆直接焚烧会污染空气，用于发电或制成颗粒燃料则可以变废为宝。",
        "沼气工程把养殖场粪污转化为燃气和有机肥，实现了资源循环利用。",
        "地热能来自地球内部，不受昼夜和季节变化影响，可以稳定供应。",
        "中深层地热供暖通过换热系统提取地下热量，不直接开采地下水。",
        "浅层地源热泵在冬季取热、夏季放热，适合办公楼和学校使用。",
        "抽水蓄能电站在用电低谷时抽水，在用电高峰时放水发电。",
    ],
    "grid_zh": [
        "储能可以把多余的电能储存起来，在需要时再释放，是构建新型电力系统的关键。",
        "锂离子电池储能响应速度快，建设周期短，近年来装机规模增长迅速。",
        "储能电站既能参与调峰，也能提供调频等辅助服务。",
        "电池的功率决定放电的快慢，容量决定能够持续放电的时间。",
        "利用可再生能源电解水制取的氢气被称为绿氢，生产过程几乎不排放二氧化碳。",
        "氢能可以长时间、大规模储存能量，适合跨季节调节。",
        "钢铁、化工和重型运输被认为是绿氢最有潜力的应用领域。",
        "储能电站的消防安全标准日益严格，电池舱需要配备温度监测和灭火装置。",
        "《可再生能源法》确立了可再生能源发电全额保障性收购等基本制度。",
        "随着成本下降，风电和光伏逐步实现平价上网，补贴政策相应退出。",
        "绿色电力证书让用电企业可以证明自己使用了可再生能源电力。",
        "各地出台的新能源配储政策，推动了储能市场的快速发展。",
    ],
    "energy_zh": [
        "发展可再生能源是实现碳达峰、碳中和目标的重要途径。",
        "近年来我国风电和光伏的新增装机容量连续多年位居世界第一。",
        "可再生能源的大规模接入对电网的灵活调节能力提出了更高要求。",
        "专家认为，多种能源互补是保障能源安全的现实选择。",
        "新能源产业带动了制造、安装和运维等环节的大量就业。",
        "业内人士表示，未来几年电网建设和体制改革将与技术进步同样重要。",
    ],
    "cooking_zh": [
        "选料是做好一道菜的第一步，时令食材的味道往往最好。",
        "炒菜前先把锅烧热再放油，可以减少粘锅。",
        "火候是中餐的灵魂，大火爆炒和小火慢炖的效果完全不同。",
        "调味要循序渐进，起锅前再尝一尝咸淡。",
        "葱姜蒜爆香之后再下主料，菜的香气会更加浓郁。",
        "和面时水要分几次加入，面团揉到光滑为止。",
        "肉类提前腌制半小时，可以让味道更好地渗入。",
        "炖汤时中途不宜加冷水，以免影响汤的鲜味。",
        "饺子煮好后捞出，可以配上醋和蒜泥一起食用。",
        "家常菜不必追求复杂，用心做出来的味道最让人怀念。",
    ],
    "football_zh": [
        "主队开场后就积极逼抢，很快掌握了场上的主动权。",
        "上半场结束前的一粒进球改变了比赛的走势。",
        "中场球员的传球调度让全队的进攻更有层次。",
        "客队门将多次扑出险球，赛后获得了全场最佳。",
        "下半场教练连续换人，加强了边路的冲击力。",
        "数万名球迷冒雨到场，为球队加油助威。",
        "定位球成为这场比赛的胜负手。",
        "青训体系的建设需要长期投入，不能急于求成。",
        "联赛进入后半程，争冠和保级的形势都十分胶着。",
        "校园足球的普及让更多孩子爱上了这项运动。",
    ],
}

HEADINGS = {
    "en": ["How it works", "The numbers", "What to watch", "Costs and benefits", "In practice",
           "Looking ahead", "The details"],
    "zh": ["基本情况", "技术要点", "发展现状", "存在的问题", "前景展望", "专家观点"],
    "en-cooking": ["Ingredients and method", "Cook's notes", "Serving", "Variations"],
    "en-football": ["The match", "Key moments", "What they said", "Looking ahead"],
    "zh-cooking": ["做法", "小贴士", "营养与口味"],
    "zh-football": ["比赛回顾", "关键时刻", "赛后点评"],
}
SEE_ALSO = {
    "en": ["For background, see our article {a}.", "We looked at a related question in {a}.",
           "Readers interested in this may also like {a}.", "There is more on this in {a}."],
    "zh": ["相关阅读：{a}。", "延伸阅读：{a}。", "另请参阅{a}一文。"],
}

# --------------------------------------------------------------------------------------------
# Pages
# --------------------------------------------------------------------------------------------


@dataclass
class Article:
    url: str
    title: str
    subjects: list[str]
    pools: list[str]
    lead: list[str]
    points: list[str]
    related: list[str] = field(default_factory=list)
    # (url, anchor, sentence with {a}) placed in the text; the url may be unrecorded
    links: list[tuple[str, str, str]] = field(default_factory=list)
    encoding: str = "utf-8"          # body bytes
    header_charset: str = "utf-8"    # what the HTTP header says
    section: str = ""
    author: str = ""
    toolbox: list[tuple[str, str]] = field(default_factory=list)
    image: str | None = None

    @property
    def lang(self) -> str:
        return "zh" if self.url.startswith(N) else "en"


def _a(url, title, subjects, pools, lead, points, **kw) -> Article:
    return Article(url, title, subjects, pools, lead, points, **kw)


ARTICLES: list[Article] = [
    # ---- www.sunwind.test: solar ----
    _a(f"{S}/solar/rooftop-panels-guide.html", "A homeowner's guide to rooftop solar panels", [SOLAR],
       ["solar", "energy"],
       ["Putting solar panels on the roof is the most direct way for a household to produce its own clean electricity.",
        "This guide walks through the questions an installer will ask and the numbers worth checking before you sign."],
       ["A four-kilowatt system covers about twenty square metres of roof and, in a temperate climate, produces roughly the electricity a small family uses in a year.",
        "Ask for the expected annual yield in kilowatt-hours, not only the peak rating in kilowatts."],
       related=[f"{S}/storage/home-batteries.html", f"{S}/solar/community-solar-farms.html",
                f"{S}/solar/solar-thermal-heating.html", f"{S}/policy/feed-in-tariffs.html"],
       links=[(f"{N}/taiyangneng/wuding-guangfu.html", "屋顶光伏走进千家万户", "This guide is also summarised in Chinese: {a}.")],
       toolbox=[(f"{S}/files/solar-factsheet.pdf", "Solar fact sheet (PDF)")],
       section="Solar", author="Helen Marsh"),
    _a(f"{S}/solar/perovskite-cells.html", "Perovskite cells edge closer to the market", [SOLAR],
       ["solar", "energy"],
       ["A family of crystals called perovskites has moved from laboratory curiosity to pilot production lines in little more than a decade.",
        "Stacked on top of conventional silicon, they promise panels that turn a third of sunlight into electricity."],
       ["The main obstacle is durability: early perovskite cells degraded within weeks when exposed to moisture and heat.",
        "Researchers now report test modules that keep most of their performance after thousands of hours in damp-heat chambers."],
       related=[f"{S}/solar/desert-megaprojects.html", f"{S}/solar/rooftop-panels-guide.html",
                f"{S}/storage/grid-scale-batteries.html"],
       section="Solar", author="Tomás Reyes"),
    _a(f"{S}/solar/community-solar-farms.html", "How community solar farms share the sun", [SOLAR],
       ["solar", "policy"],
       ["Not everyone has a sunny roof, and many people rent rather than own their homes.",
        "Community solar lets them buy or lease a share of a nearby solar farm and receive credits on their electricity bills."],
       ["A typical community project of one to five megawatts can serve several hundred households.",
        "Subscribers usually sign up for a fixed term and can transfer their share if they move within the same utility area."],
       related=[f"{S}/policy/energy-cooperatives.html", f"{S}/solar/rooftop-panels-guide.html",
                f"{S}/solar/desert-megaprojects.html"],
       section="Solar", author="Helen Marsh"),
    _a(f"{S}/solar/solar-thermal-heating.html", "Solar thermal collectors for hot water", [SOLAR],
       ["solar", "heat"],
       ["Solar thermal collectors heat water directly instead of generating electricity.",
        "In sunny regions a simple rooftop system can provide most of a home's hot water for much of the year."],
       ["Evacuated tube collectors lose less heat on cold days than flat plate collectors, at a higher price.",
        "The collector is connected to an insulated cylinder, and a backup boiler or immersion heater tops up the temperature in winter."],
       related=[f"{S}/geothermal/heat-pumps-ground.html", f"{S}/solar/rooftop-panels-guide.html",
                f"{N}/news/2023/taiyangneng-reshuiqi.html"],
       section="Solar", author="Anna Lindqvist"),
    _a(f"{S}/solar/desert-megaprojects.html", "Desert solar megaprojects and the economics of scale", [SOLAR],
       ["solar", "energy"],
       ["Some of the largest power stations being built today are solar parks covering tens of square kilometres of desert.",
        "Cheap land, strong sunshine and long-term contracts have produced some of the lowest electricity prices ever recorded."],
       ["Concentrated solar power plants use mirrors to focus sunlight onto a receiver and can store heat in molten salt for the night.",
        "Sand storms and the cost of water for cleaning are practical problems that desert operators have had to solve."],
       related=[f"{S}/solar/perovskite-cells.html", f"{S}/storage/green-hydrogen.html",
                f"{S}/policy/feed-in-tariffs.html"],
       section="Solar", author="Tomás Reyes"),
    # ---- www.sunwind.test: wind ----
    _a(f"{S}/wind/offshore-wind-basics.html", "Offshore wind: why turbines are moving out to sea", [WIND],
       ["wind", "energy"],
       ["Offshore wind farms have grown from a handful of small machines near the coast to fleets of giant turbines far out at sea.",
        "The wind over the sea is stronger and steadier than over land, and there are no neighbours to object to the view."],
       ["The largest offshore turbines now have rotors more than two hundred metres across.",
        "Foundations are driven into the seabed in shallow water, while floating platforms anchored with cables open up deeper sites."],
       related=[f"{S}/wind/wind-forecasting.html", f"{S}/wind/repowering-old-sites.html",
                f"{S}/wind/turbine-blade-recycling.html", f"{N}/fengneng/haishang-fengdian.html"],
       links=[(f"{S}/wind/floating-turbines.html", "floating turbines", "Our next report looks at {a} in deep water.")],
       toolbox=[(f"{S}/images/offshore-wind-farm.png", "Enlarge image"),
                (f"{S}/drafts/offshore-wind-draft.html", "Draft version (editors only)")],
       image=f"{S}/images/offshore-wind-farm.png", section="Wind", author="Gareth Price"),
    _a(f"{S}/wind/turbine-blade-recycling.html", "The blade problem: recycling old wind turbine blades", [WIND],
       ["wind", "energy"],
       ["Wind turbine blades are made of glass or carbon fibre bound in resin, a composite that is strong, light and hard to take apart.",
        "As the first generation of wind farms reaches retirement, thousands of blades need somewhere to go."],
       ["Some blades are cut up and ground into filler for cement, replacing raw materials in the kiln.",
        "Manufacturers have started to sell blades made with resins that can be dissolved so the fibres can be recovered."],
       related=[f"{S}/wind/repowering-old-sites.html", f"{S}/wind/offshore-wind-basics.html"],
       section="Wind", author="Gareth Price"),
    _a(f"{S}/wind/small-wind-for-farms.html", "Small wind turbines on farms", [WIND],
       ["wind", "bio"],
       ["On an exposed farm a small turbine on a mast can supply much of the electricity used by a dairy or a grain dryer.",
        "The economics depend almost entirely on the average wind speed at hub height."],
       ["A wind measurement campaign of at least several months is worth the cost before buying a turbine.",
        "Turbines should be placed well clear of buildings and trees, which create turbulence that lowers output and increases wear."],
       related=[f"{S}/bio/biogas-from-farm-waste.html", f"{S}/wind/wind-forecasting.html"],
       section="Wind", author="Anna Lindqvist"),
    _a(f"{S}/wind/wind-forecasting.html", "Forecasting the wind for a steadier grid", [WIND],
       ["wind", "grid"],
       ["Knowing how much wind power will be available tomorrow is almost as valuable as producing it.",
        "Grid operators combine weather models with data from every turbine to forecast output hours and days ahead."],
       ["Forecast errors have fallen steadily as weather models gained resolution and machine learning was added.",
        "Better forecasts mean fewer fossil plants have to be kept running in reserve."],
       related=[f"{S}/storage/grid-scale-batteries.html", f"{S}/wind/offshore-wind-basics.html",
                f"{N}/news/2023/fengdian-xiaona.html"],
       section="Wind", author="Gareth Price"),
    _a(f"{S}/wind/repowering-old-sites.html", "Repowering: new turbines on old wind sites", [WIND],
       ["wind", "policy"],
       ["Many of the best wind sites were developed in the 1990s with turbines that are small by today's standards.",
        "Replacing them with fewer, larger machines can double or triple the energy from the same land."],
       ["Repowering reuses existing roads, grid connections and the local acceptance that the first project earned.",
        "Planning authorities usually treat a repowered site as a new application, which can take years."],
       related=[f"{S}/wind/turbine-blade-recycling.html", f"{S}/policy/energy-cooperatives.html"],
       section="Wind", author="Anna Lindqvist"),
    # ---- www.sunwind.test: water, heat, bio, storage, policy ----
    _a(f"{S}/hydro/run-of-river.html", "Run-of-river hydropower explained", [HYDRO],
       ["water", "energy"],
       ["A run-of-river plant diverts part of a river's flow through a turbine and returns it downstream without a large reservoir.",
        "Its output follows the river: high after rain and snowmelt, lower in dry summers."],
       ["Because there is little or no storage, the environmental footprint is smaller than that of a large dam.",
        "Intake screens keep fish and debris out of the turbine, and a minimum flow is left in the river at all times."],
       related=[f"{S}/hydro/pumped-storage.html", f"{S}/hydro/tidal-stream.html", f"{N}/shuidian/xiaoshuidian.html"],
       links=[(f"{S}/hydro/tidal-lagoon.html", "tidal lagoons", "Coastal engineers have proposed {a} as a tidal cousin of the river plant.")],
       section="Hydro", author="Mei Chen"),
    _a(f"{S}/hydro/pumped-storage.html", "Pumped storage: the water battery", [HYDRO, STORAGE],
       ["water", "grid"],
       ["Pumped storage plants move water between two reservoirs at different heights.",
        "When electricity is plentiful they pump water uphill, and when it is scarce they let it run back down through turbines."],
       ["Pumped hydro accounts for the vast majority of energy storage capacity installed worldwide.",
        "A round trip returns about three quarters of the electricity used for pumping."],
       related=[f"{S}/storage/grid-scale-batteries.html", f"{S}/hydro/run-of-river.html"],
       section="Hydro", author="Mei Chen"),
    _a(f"{S}/hydro/tidal-stream.html", "Tidal stream turbines in fast channels", [HYDRO],
       ["water", "wind"],
       ["Where the tide races through a narrow channel between islands, underwater turbines can harvest its energy much as wind turbines do in air.",
        "Because water is about eight hundred times denser than air, the rotors can be much smaller."],
       ["Demonstration arrays have now run for several years and delivered power to island grids.",
        "Maintenance is the hardest part, since every repair needs a vessel and a calm window between tides."],
       related=[f"{S}/hydro/run-of-river.html", f"{S}/wind/offshore-wind-basics.html"],
       links=[(f"{S}/hydro/tidal-lagoon.html", "lagoon schemes", "Unlike {a}, stream turbines need no sea wall.")],
       section="Hydro", author="Mei Chen"),
    _a(f"{S}/geothermal/heat-pumps-ground.html", "Ground-source heat pumps", [GEO],
       ["heat", "energy"],
       ["A ground-source heat pump draws warmth from the soil or from boreholes to heat a building.",
        "It is one of the most efficient ways to replace an oil or gas boiler."],
       ["Horizontal loops need a large garden, while vertical boreholes fit on small plots.",
        "The system works best in well-insulated homes with underfloor heating or large radiators."],
       related=[f"{S}/geothermal/deep-geothermal-power.html", f"{S}/solar/solar-thermal-heating.html",
                f"{N}/news/2023/dire-gongnuan.html"],
       section="Geothermal", author="Anna Lindqvist"),
    _a(f"{S}/geothermal/deep-geothermal-power.html", "Deep geothermal power plants", [GEO],
       ["heat", "energy"],
       ["Deep geothermal plants bring hot water or steam from kilometres underground to drive turbines.",
        "Once drilled, a good field can run for decades with low operating costs."],
       ["Binary cycle plants can use water at temperatures as low as one hundred degrees by passing its heat to a fluid with a lower boiling point.",
        "Careful monitoring is needed, because injecting fluids can occasionally trigger small earthquakes."],
       related=[f"{S}/geothermal/heat-pumps-ground.html", f"{S}/policy/feed-in-tariffs.html"],
       section="Geothermal", author="Tomás Reyes"),
    _a(f"{S}/bio/biogas-from-farm-waste.html", "Biogas from farm waste", [BIO],
       ["bio", "energy"],
       ["A dairy farm produces a steady stream of manure that can be turned into energy instead of a disposal problem.",
        "Farm-scale digesters now run on thousands of farms across Europe and Asia."],
       ["A digester of a few hundred cubic metres can supply heat for the farmhouse and electricity for the milking parlour.",
        "Feeding food waste alongside slurry raises gas yields, but needs extra hygiene controls."],
       related=[f"{S}/bio/sustainable-aviation-fuel.html", f"{S}/wind/small-wind-for-farms.html",
                f"{N}/news/2023/jiegan-fadian.html"],
       section="Bioenergy", author="Mei Chen"),
    _a(f"{S}/bio/sustainable-aviation-fuel.html", "Can biofuels make flying cleaner?", [BIO],
       ["bio", "policy"],
       ["Airlines have promised to cut emissions, but batteries are far too heavy for long-haul flights.",
        "Sustainable aviation fuel made from waste oils and residues can be blended with ordinary jet fuel without changing the engines."],
       ["Today such fuel makes up well under one percent of the jet fuel used, and it costs two to three times as much.",
        "Mandates that require a rising share of sustainable fuel are meant to build up supply."],
       related=[f"{S}/bio/biogas-from-farm-waste.html", f"{S}/storage/green-hydrogen.html"],
       section="Bioenergy", author="Tomás Reyes"),
    _a(f"{S}/storage/home-batteries.html", "Home batteries and solar self-consumption", [STORAGE, SOLAR],
       ["grid", "solar"],
       ["A home battery stores the surplus from rooftop panels during the day and releases it in the evening.",
        "Households with a battery typically use twice as much of their own solar electricity as those without."],
       ["A battery of five to ten kilowatt-hours covers the evening needs of most homes.",
        "Whether it pays off depends on the gap between the price you pay for electricity and the price you get for exports."],
       related=[f"{S}/solar/rooftop-panels-guide.html", f"{S}/storage/grid-scale-batteries.html"],
       section="Storage", author="Helen Marsh"),
    _a(f"{S}/storage/grid-scale-batteries.html", "Grid-scale batteries come of age", [STORAGE],
       ["grid", "energy"],
       ["Rows of shipping-container batteries are appearing next to substations and solar parks.",
        "They store energy for a few hours and provide fast services that keep the grid stable."],
       ["Large projects now exceed one gigawatt-hour of capacity on a single site.",
        "New chemistries such as sodium-ion and iron-air aim to cut costs and avoid scarce materials."],
       related=[f"{S}/hydro/pumped-storage.html", f"{S}/storage/green-hydrogen.html",
                f"{N}/chuneng/chuneng-dianzhan.html"],
       section="Storage", author="Helen Marsh"),
    _a(f"{S}/storage/green-hydrogen.html", "Green hydrogen: hype and reality", [STORAGE],
       ["grid", "policy"],
       ["Hydrogen made with renewable electricity is promoted as the fuel that can clean up the hardest sectors.",
        "The technology works, but costs and efficiency losses mean it must be used where there is no better option."],
       ["Electrolysers are being built at the hundred-megawatt scale next to large solar and wind farms.",
        "Transporting hydrogen is difficult, so many projects convert it into ammonia or use it on site."],
       related=[f"{S}/storage/grid-scale-batteries.html", f"{S}/solar/desert-megaprojects.html",
                f"{N}/news/2023/lvqing-xiangmu.html"],
       section="Storage", author="Gareth Price"),
    _a(f"{S}/policy/feed-in-tariffs.html", "From feed-in tariffs to auctions", [POLICY],
       ["policy", "energy"],
       ["Two decades ago, guaranteed feed-in tariffs made rooftop solar and onshore wind bankable for the first time.",
        "Today most countries buy new renewable capacity through competitive auctions instead."],
       ["Early tariffs were generous because the technologies were expensive, and costs to consumers rose quickly.",
        "Auction prices fell so low that some projects now sell power without any subsidy."],
       related=[f"{S}/policy/energy-cooperatives.html", f"{S}/solar/rooftop-panels-guide.html",
                f"{N}/news/2023/kezaisheng-zhengce.html"],
       section="Policy", author="Helen Marsh"),
    _a(f"{S}/policy/energy-cooperatives.html", "Energy cooperatives put citizens in charge", [POLICY],
       ["policy", "wind"],
       ["Energy cooperatives let local residents invest together in wind turbines, solar roofs and heat networks.",
        "Members usually have one vote each, regardless of how much they have invested."],
       ["Cooperatives often reinvest part of their income in energy-saving projects in their community.",
        "Simplified rules for small projects have helped cooperatives compete with large developers."],
       related=[f"{S}/solar/community-solar-farms.html", f"{S}/wind/repowering-old-sites.html"],
       section="Policy", author="Anna Lindqvist"),
    # ---- www.nengyuan.test: energy (UTF-8) ----
    _a(f"{N}/taiyangneng/guangfu-fadian.html", "光伏发电是怎样工作的", [SOLAR], ["solar_zh", "energy_zh"],
       ["光伏发电是目前增长最快的可再生能源发电方式之一。", "本文简要介绍光伏发电的原理、系统组成和应用场景。"],
       ["一个完整的光伏系统由光伏组件、逆变器、支架、电缆和监控设备组成。",
        "按照应用方式，光伏电站可以分为集中式地面电站和分布式屋顶电站两类。"],
       related=[f"{N}/taiyangneng/wuding-guangfu.html", f"{N}/news/2023/taiyangneng-reshuiqi.html",
                f"{N}/chuneng/chuneng-dianzhan.html"],
       links=[(f"{S}/old/solar-basics.html", "Solar basics (English)", "英文资料：{a}。")],
       section="太阳能", author="李明"),
    _a(f"{N}/taiyangneng/wuding-guangfu.html", "屋顶光伏走进千家万户", [SOLAR], ["solar_zh", "energy_zh"],
       ["在整县推进分布式光伏的带动下，越来越多的农户在自家屋顶装上了光伏板。",
        "“自发自用、余电上网”的模式，让屋顶变成了农民增收的新渠道。"],
       ["一户农家屋顶通常可以安装十到二十千瓦的光伏组件。", "安装前应检查屋顶的承重和防水情况，并选择有资质的安装企业。"],
       related=[f"{N}/taiyangneng/guangfu-fadian.html", f"{N}/news/2023/kezaisheng-zhengce.html"],
       links=[(f"{S}/solar/rooftop-panels-guide.html", "A homeowner's guide to rooftop solar panels", "英文版：{a}。")],
       section="太阳能", author="王芳"),
    _a(f"{N}/fengneng/haishang-fengdian.html", "海上风电驶向深远海", [WIND], ["wind_zh", "energy_zh"],
       ["沿海省份正在加快建设海上风电基地。", "随着近海资源逐步开发，海上风电开始向更远、更深的海域发展。"],
       ["单机容量超过十兆瓦的大型风电机组已经在多个项目中投入运行。", "漂浮式风电技术可以摆脱水深限制，目前仍处于示范阶段。"],
       related=[f"{N}/fengneng/fengji-weihu.html", f"{N}/news/2023/fengdian-xiaona.html"],
       links=[(f"{N}/fengneng/fengdian-jiage.html", "风电上网电价", "关于电价，请参阅{a}专题。"),
              (f"{S}/wind/offshore-wind-basics.html", "Offshore wind: why turbines are moving out to sea", "英文版：{a}。")],
       section="风能", author="张伟"),
    _a(f"{N}/fengneng/fengji-weihu.html", "风电机组的运行与维护", [WIND], ["wind_zh", "energy_zh"],
       ["风电场建成后，能否长期稳定发电很大程度上取决于运维水平。", "本文介绍风电机组日常巡检和故障处理的主要内容。"],
       ["定期检查叶片表面，及时修补前缘腐蚀和雷击损伤。", "利用振动数据分析可以提前发现齿轮箱和轴承的早期故障。"],
       related=[f"{N}/fengneng/haishang-fengdian.html", f"{N}/chuneng/chuneng-dianzhan.html"],
       section="风能", author="张伟"),
    _a(f"{N}/chuneng/chuneng-dianzhan.html", "电化学储能电站迎来快速发展", [STORAGE], ["grid_zh", "energy_zh"],
       ["电化学储能电站正在成为新型电力系统中的重要调节资源。", "多个百兆瓦级储能项目已在各地并网运行。"],
       ["储能电站一般由电池舱、变流器、升压设备和能量管理系统组成。", "合理的电价机制是储能电站实现盈利的前提。"],
       related=[f"{N}/news/2023/lvqing-xiangmu.html", f"{N}/taiyangneng/guangfu-fadian.html"],
       links=[(f"{S}/storage/grid-scale-batteries.html", "Grid-scale batteries come of age", "英文版：{a}。")],
       section="储能", author="李明"),
    _a(f"{N}/shuidian/xiaoshuidian.html", "小水电的绿色转型", [HYDRO], ["other_zh", "energy_zh"],
       ["小水电曾为山区农村通电作出了重要贡献。", "如今，一些小水电站正在进行生态改造，努力实现发电与护河的双赢。"],
       ["改造措施包括增设生态流量泄放设施和在线监测装置。", "对生态影响大、经济效益差的电站则有序退出。"],
       related=[f"{N}/news/2023/dire-gongnuan.html", f"{N}/news/2023/jiegan-fadian.html"],
       links=[(f"{S}/hydro/run-of-river.html", "Run-of-river hydropower explained", "英文版：{a}。")],
       section="水电", author="王芳"),
    # ---- www.nengyuan.test: news archive in GBK ----
    _a(f"{N}/news/2023/taiyangneng-reshuiqi.html", "太阳能热水器市场回暖", [SOLAR], ["solar_zh", "energy_zh"],
       ["近年来，太阳能热水器在农村市场重新受到欢迎。", "与电热水器相比，它几乎不消耗电能，使用成本很低。"],
       ["真空管集热器在冬季仍能保持较高的集热效率。", "不少企业推出了太阳能与空气源热泵相结合的热水系统。"],
       related=[f"{N}/taiyangneng/guangfu-fadian.html", f"{N}/news/2023/dire-gongnuan.html"],
       links=[(f"{S}/solar/solar-thermal-heating.html", "Solar thermal collectors for hot water", "英文资料：{a}。")],
       encoding="gbk", header_charset="gbk", section="资讯", author="本站记者"),
    _a(f"{N}/news/2023/fengdian-xiaona.html", "多措并举提升风电消纳能力", [WIND], ["wind_zh", "grid_zh"],
       ["风电消纳问题一度制约了风电产业的健康发展。", "通过建设外送通道、推进市场化交易，弃风率已明显下降。"],
       ["跨省跨区电力交易让富余风电可以送到更远的地方。", "风电功率预测精度的提高，也为电网调度提供了帮助。"],
       related=[f"{N}/fengneng/haishang-fengdian.html", f"{N}/chuneng/chuneng-dianzhan.html"],
       links=[(f"{S}/wind/wind-forecasting.html", "Forecasting the wind for a steadier grid", "英文资料：{a}。")],
       encoding="gbk", header_charset="gbk", section="资讯", author="本站记者"),
    _a(f"{N}/news/2023/jiegan-fadian.html", "秸秆发电让农业废弃物变废为宝", [BIO], ["other_zh", "energy_zh"],
       ["每到收获季节，如何处理大量秸秆一直是农村面临的难题。", "秸秆发电厂的建成，为秸秆找到了新的出路。"],
       ["一座三万千瓦的生物质电厂每年可消耗秸秆二十多万吨。", "电厂收购秸秆也增加了当地农民的收入。"],
       related=[f"{N}/news/2023/dire-gongnuan.html", f"{N}/shuidian/xiaoshuidian.html"],
       links=[(f"{S}/bio/biogas-from-farm-waste.html", "Biogas from farm waste", "英文资料：{a}。")],
       encoding="gbk", header_charset="gbk", section="资讯", author="本站记者"),
    _a(f"{N}/news/2023/dire-gongnuan.html", "地热供暖温暖北方城镇", [GEO], ["other_zh", "energy_zh"],
       ["在华北一些城镇，地热供暖已经取代了燃煤锅炉。", "地下深处的热水为成千上万户居民送去了温暖。"],
       ["采灌均衡、取热不取水是地热可持续开发的基本原则。", "与燃煤供暖相比，地热供暖可以显著减少二氧化碳和颗粒物排放。"],
       related=[f"{N}/news/2023/jiegan-fadian.html", f"{N}/news/2023/kezaisheng-zhengce.html"],
       links=[(f"{S}/geothermal/heat-pumps-ground.html", "Ground-source heat pumps", "英文资料：{a}。")],
       encoding="gbk", header_charset="gbk", section="资讯", author="本站记者"),
    _a(f"{N}/news/2023/kezaisheng-zhengce.html", "可再生能源政策回顾", [POLICY], ["grid_zh", "energy_zh"],
       ["《可再生能源法》实施以来，我国可再生能源产业实现了跨越式发展。", "本文回顾了近年来主要的支持政策及其作用。"],
       ["从固定电价到竞争性配置，价格机制的变化推动了成本持续下降。", "绿证交易和可再生能源电力消纳责任权重制度进一步完善了市场机制。"],
       related=[f"{N}/taiyangneng/wuding-guangfu.html", f"{N}/news/2023/lvqing-xiangmu.html"],
       links=[(f"{S}/policy/feed-in-tariffs.html", "From feed-in tariffs to auctions", "英文资料：{a}。")],
       encoding="gbk", header_charset="gbk", section="资讯", author="本站评论员"),
    # the mislabelled page: GBK bytes and <meta charset=gb2312>, but the HTTP header says UTF-8
    _a(f"{N}/news/2023/lvqing-xiangmu.html", "绿氢项目加快落地", [STORAGE], ["grid_zh", "energy_zh"],
       ["在风光资源丰富的地区，一批可再生能源制氢项目相继开工。", "绿氢被视为连接可再生电力与工业用户的重要纽带。"],
       ["电解槽是制氢系统的核心设备，国内企业的产能正在快速扩大。", "降低制氢成本，关键在于获得更便宜的可再生电力。"],
       related=[f"{N}/chuneng/chuneng-dianzhan.html", f"{N}/news/2023/kezaisheng-zhengce.html"],
       links=[(f"{S}/storage/green-hydrogen.html", "Green hydrogen: hype and reality", "英文资料：{a}。")],
       encoding="gbk", header_charset="utf-8", section="资讯", author="本站记者"),
    # ---- www.nengyuan.test: lifestyle channel (off-topic) ----
    _a(f"{N}/shenghuo/meishi/hongshaorou.html", "家常红烧肉的做法", [COOKING], ["cooking_zh"],
       ["红烧肉是一道经典的家常菜，肥而不腻，入口即化。", "下面介绍一种简单易学的做法。"],
       ["五花肉切成大小均匀的方块，冷水下锅焯去血沫。", "冰糖小火炒出糖色，再放入肉块翻炒上色，加热水没过肉块，小火炖一个小时。"],
       related=[f"{N}/shenghuo/meishi/mapo-doufu.html", f"{N}/shenghuo/meishi/shougong-jiaozi.html"],
       section="生活频道", author="美食小编"),
    _a(f"{N}/shenghuo/meishi/shougong-jiaozi.html", "手工饺子怎样包才好吃", [COOKING], ["cooking_zh"],
       ["过年吃饺子是北方的传统习俗。", "自己和面、拌馅、包饺子，全家人围在一起其乐融融。"],
       ["猪肉白菜馅要先把白菜挤干水分，以免馅料出汤。", "饺子皮中间稍厚、边缘稍薄，煮的时候不容易破。"],
       related=[f"{N}/shenghuo/meishi/hongshaorou.html", f"{N}/shenghuo/meishi/jieneng-chufang.html"],
       encoding="gbk", header_charset="gbk", section="生活频道", author="美食小编"),
    _a(f"{N}/shenghuo/meishi/mapo-doufu.html", "麻婆豆腐：麻辣鲜香的川菜经典", [COOKING], ["cooking_zh"],
       ["麻婆豆腐是川菜的代表之一，讲究麻、辣、烫、香、酥、嫩。", "只要掌握几个要点，在家也能做出饭店的味道。"],
       ["豆腐切块后放入淡盐水中焯一下，可以去除豆腥味并且不易碎。", "郫县豆瓣要小火炒出红油，最后撒上花椒粉。"],
       related=[f"{N}/shenghuo/meishi/hongshaorou.html", f"{N}/shenghuo/zuqiu/zhongchao-zongshu.html"],
       section="生活频道", author="美食小编"),
    _a(f"{N}/shenghuo/meishi/jieneng-chufang.html", "厨房节能小窍门", [COOKING], ["cooking_zh"],
       ["厨房是家庭能耗较高的地方，做饭时注意一些小细节就能省下不少燃气和电。", "下面这些节能窍门简单易行。"],
       ["炒菜时让火焰覆盖锅底即可，火苗超出锅底只会浪费燃气。", "用高压锅炖肉比普通锅节省一半左右的时间和燃气。",
        "煮饭前把大米提前浸泡半小时，可以缩短电饭煲的加热时间。"],
       related=[f"{N}/shenghuo/meishi/shougong-jiaozi.html", f"{N}/shenghuo/meishi/mapo-doufu.html"],
       section="生活频道", author="美食小编"),
    _a(f"{N}/shenghuo/zuqiu/zhongchao-zongshu.html", "中超联赛第十轮综述", [FOOTBALL], ["football_zh"],
       ["本轮中超联赛共进行了八场比赛，多支球队的排名发生了变化。", "领头羊继续保持不败，争冠形势逐渐明朗。"],
       ["领头羊客场一球小胜，继续保持不败战绩。", "两支升班马都拿到了宝贵的积分，保级形势更加复杂。"],
       related=[f"{N}/shenghuo/zuqiu/shijiebei-huigu.html", f"{N}/shenghuo/zuqiu/xiaoyuan-zuqiu.html"],
       section="生活频道", author="体育记者"),
    _a(f"{N}/shenghuo/zuqiu/xiaoyuan-zuqiu.html", "校园足球：让孩子们在奔跑中成长", [FOOTBALL], ["football_zh"],
       ["在这所小学，每个班每周都有一节足球课。", "操场上孩子们追逐足球的身影，成了校园里最美的风景。"],
       ["学校组建了男女各两支校队，参加区里的联赛。", "教练说，培养孩子对足球的兴趣比比赛成绩更重要。"],
       related=[f"{N}/shenghuo/zuqiu/zhongchao-zongshu.html", f"{N}/shenghuo/meishi/hongshaorou.html"],
       encoding="gbk", header_charset="gbk", section="生活频道", author="体育记者"),
    _a(f"{N}/shenghuo/zuqiu/shijiebei-huigu.html", "世界杯经典战役回顾", [FOOTBALL], ["football_zh"],
       ["每一届世界杯都会留下令人难忘的比赛。", "我们挑选了几场最经典的对决，和读者一起重温。"],
       ["那场决赛的加时赛中，替补前锋打入了制胜一球。", "点球大战往往最考验球员的心理素质。"],
       related=[f"{N}/shenghuo/zuqiu/zhongchao-zongshu.html", f"{N}/shenghuo/zuqiu/xiaoyuan-zuqiu.html"],
       section="生活频道", author="体育记者"),
    # ---- www.weekend.test: recipes ----
    _a(f"{W}/recipes/slow-roast-lamb.html", "Slow-roast shoulder of lamb with garlic and rosemary", [COOKING], ["cooking"],
       ["A shoulder of lamb cooked slowly for four hours becomes so tender that it can be pulled apart with a spoon.",
        "It is the easiest Sunday lunch we know: ten minutes of work and the oven does the rest."],
       ["Stud the meat with slivers of garlic and sprigs of rosemary, season well and sit it on a bed of sliced onions.",
        "Cover with foil, roast at a low heat and uncover for the last half hour to brown the skin."],
       related=[f"{W}/recipes/mushroom-risotto.html", f"{W}/recipes/sourdough-starter.html"],
       section="Recipes", author="Sam Okafor"),
    _a(f"{W}/recipes/sourdough-starter.html", "Keeping a sourdough starter alive", [COOKING], ["cooking"],
       ["A sourdough starter is nothing more than flour and water colonised by wild yeasts and bacteria.",
        "Feed it regularly and it will raise bread for years."],
       ["Mix equal weights of flour and water, cover loosely and keep it somewhere warm.",
        "Discard half and feed it every day until it reliably doubles within six hours."],
       related=[f"{W}/recipes/slow-roast-lamb.html", f"{W}/recipes/summer-gazpacho.html"],
       links=[(f"{W}/recipes/apple-pie.html", "apple pie", "Next week: a proper {a} with a sourdough crust.")],
       section="Recipes", author="Sam Okafor"),
    _a(f"{W}/recipes/summer-gazpacho.html", "Chilled gazpacho for hot days", [COOKING], ["cooking"],
       ["Gazpacho is a cold soup of ripe tomatoes, cucumber, peppers and good olive oil.",
        "There is no cooking at all, which is exactly what you want on the hottest days of summer."],
       ["Blend the vegetables with a slice of stale bread, a little garlic and sherry vinegar.",
        "Chill for at least two hours and serve with diced cucumber and croutons."],
       related=[f"{W}/recipes/solar-oven-cooking.html", f"{W}/recipes/mushroom-risotto.html"],
       section="Recipes", author="Lucia Ferri"),
    _a(f"{W}/recipes/mushroom-risotto.html", "A patient mushroom risotto", [COOKING], ["cooking"],
       ["Risotto rewards patience: the rice releases its starch slowly as hot stock is added ladle by ladle.",
        "Dried porcini give the dish a deep, savoury flavour."],
       ["Soak the dried mushrooms in hot water and add the strained liquid to the stock.",
        "Finish with a knob of butter and grated parmesan, then let it rest for two minutes before serving."],
       related=[f"{W}/recipes/slow-roast-lamb.html", f"{W}/football/derby-report.html"],
       section="Recipes", author="Lucia Ferri"),
    _a(f"{W}/recipes/solar-oven-cooking.html", "Cooking with the sun: a weekend with a solar oven", [COOKING, SOLAR],
       ["cooking", "solar"],
       ["A solar oven is an insulated box with a glass lid and reflectors that concentrate sunlight on a dark pot.",
        "On a clear summer day it reaches temperatures high enough to bake bread and slow-cook stews without any fuel."],
       ["We tested a folding model in the garden and cooked a bean stew in about three hours.",
        "Solar cookers are used in sunny regions where firewood is scarce, cutting smoke in kitchens and pressure on forests."],
       related=[f"{W}/recipes/summer-gazpacho.html", f"{S}/solar/solar-thermal-heating.html"],
       links=[(f"{S}/old/solar-basics.html", "solar basics", "The same sunshine can power panels on the roof; our friends at SunWind Review explain the {a}.")],
       section="Recipes", author="Lucia Ferri"),
    # ---- www.weekend.test: football ----
    _a(f"{W}/football/derby-report.html", "Derby day: late header settles a tense affair", [FOOTBALL], ["football"],
       ["It took eighty-eight minutes and a towering header from the centre-back to separate the two local rivals.",
        "The win lifts the home side into the top four for the first time this season."],
       ["The visitors had the better of the first half and hit the post twice.",
        "After the break the home side pushed their full-backs forward and finally broke through from a corner."],
       related=[f"{W}/football/tactics-pressing.html", f"{W}/football/world-cup-memories.html"],
       section="Football", author="Dan Whitfield"),
    _a(f"{W}/football/youth-academy.html", "Inside the youth academy", [FOOTBALL], ["football"],
       ["Every Tuesday evening, more than a hundred young players train on the club's floodlit pitches.",
        "The academy's aim is simple: develop good people first and good footballers second."],
       ["Coaches limit the number of competitive matches for the youngest age groups to keep the focus on learning.",
        "Players also receive help with schoolwork, because only a few will make a living from the game."],
       related=[f"{W}/football/tactics-pressing.html", f"{W}/football/stadium-solar-roof.html"],
       section="Football", author="Dan Whitfield"),
    _a(f"{W}/football/tactics-pressing.html", "Why everyone presses now", [FOOTBALL], ["football"],
       ["A decade ago high pressing was the signature of a few coaches; now almost every team does it.",
        "Winning the ball close to the opponents' goal creates the best chances of all."],
       ["A press works only if the whole team moves together and cuts off the short passing options.",
        "Teams that press well also need a plan for when the first line is beaten."],
       related=[f"{W}/football/derby-report.html", f"{W}/football/youth-academy.html"],
       section="Football", author="Dan Whitfield"),
    _a(f"{W}/football/stadium-solar-roof.html", "Our stadium goes solar", [FOOTBALL, SOLAR], ["football", "solar"],
       ["The club has finished fitting solar panels to the roof of the main stand, making it one of the greenest grounds in the league.",
        "The system will produce around a third of the electricity the stadium uses over a year."],
       ["More than two thousand panels cover the roof, and a battery stores power for the floodlights on winter evenings.",
        "Rainwater from the roof is collected to water the pitch, and supporters can follow the live output on a screen in the concourse."],
       related=[f"{W}/football/youth-academy.html", f"{S}/storage/home-batteries.html",
                f"{S}/solar/community-solar-farms.html"],
       section="Football", author="Dan Whitfield"),
    _a(f"{W}/football/world-cup-memories.html", "World Cup memories from our readers", [FOOTBALL], ["football"],
       ["We asked readers for their favourite World Cup moments, and the replies filled our inbox for a week.",
        "Here is a selection, lightly edited."],
       ["Many remembered watching with their grandparents on a small television in the kitchen.",
        "Others recalled penalty shoot-outs that still make them nervous decades later."],
       related=[f"{W}/football/derby-report.html", f"{W}/recipes/slow-roast-lamb.html"],
       section="Football", author="Readers"),
]
BY_URL = {a.url: a for a in ARTICLES}

# recorded non-article URLs
REDIRECT = (f"{S}/old/solar-basics.html", f"{S}/solar/rooftop-panels-guide.html")
RECORDED_404 = [f"{S}/hydro/tidal-lagoon.html", f"{W}/calendar/2023/12/", f"{W}/calendar/2025/01/"]
UNRECORDED = [f"{S}/wind/floating-turbines.html", f"{N}/fengneng/fengdian-jiage.html",
              f"{W}/recipes/apple-pie.html"]
PDF_URL = f"{S}/files/solar-factsheet.pdf"
PNG_URL = f"{S}/images/offshore-wind-farm.png"
DRAFT_URL = f"{S}/drafts/offshore-wind-draft.html"
ROBOTS = {S: "User-agent: *\nDisallow: /drafts/\n",
          N: "User-agent: *\nDisallow: /search\n",
          W: "User-agent: *\nDisallow: /cart/\n"}
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
CALENDAR_EVENTS = [
    "Farmers' market on the square every Saturday morning.",
    "Home match on the second Sunday; gates open an hour before kick-off.",
    "Bread-making workshop in the community kitchen.",
    "Five-a-side tournament for under-twelves.",
    "Street food festival along the river.",
    "Supporters' club quiz night.",
]

# --------------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------------

esc = html.escape


def link(href: str, text: str) -> str:
    return f'<a href="{esc(href)}">{esc(text, quote=False)}</a>'


def local(url: str, host: str) -> str:
    """Root-relative for same-host links on sunwind and nengyuan; absolute otherwise."""
    return url[len(host):] if url.startswith(host) and host != W else url


def title_of(url: str) -> str:
    return BY_URL[url].title if url in BY_URL else url


def _rng(url: str) -> random.Random:
    return random.Random(int(hashlib.sha256(url.encode()).hexdigest()[:16], 16))


def compose(art: Article) -> list[tuple[str, str]]:
    """The article body as blocks ``("p" | "h2", html)``."""
    rng = _rng(art.url)
    joiner = "" if art.lang == "zh" else " "
    primary = list(POOLS[art.pools[0]])
    rng.shuffle(primary)
    secondary = [s for p in art.pools[1:] for s in POOLS[p]]
    rng.shuffle(secondary)
    kind = art.pools[0].replace("_zh", "")
    hkey = art.lang + ("-" + kind if kind in ("cooking", "football") else "")
    headings = list(HEADINGS[hkey])
    rng.shuffle(headings)
    see_also = SEE_ALSO[art.lang]
    host = art.url.split("/", 3)[0] + "//" + art.url.split("/", 3)[2]

    def text(sentences: list[str]) -> str:
        return joiner.join(esc(s, quote=False) for s in sentences)

    paras = [text(art.lead),
             text(art.points + primary[:3]),
             text(primary[3:6] + secondary[:1]),
             text(secondary[1:3] + primary[6:8])]
    # in-text links: the article's own links first, then the first two related pages
    inline = [(u, anchor, sentence) for u, anchor, sentence in art.links]
    for i, u in enumerate(art.related[:2]):
        inline.append((u, title_of(u), see_also[(i + len(art.url)) % len(see_also)]))
    for i, (u, anchor, sentence) in enumerate(inline):
        k = 1 + i % 3
        paras[k] += joiner + esc(sentence, quote=False).replace("{a}", link(local(u, host), anchor))
    blocks = [("p", paras[0]), ("p", paras[1]), ("h2", esc(headings[0])), ("p", paras[2]),
              ("h2", esc(headings[1])), ("p", paras[3])]
    return blocks


def body_html(blocks: list[tuple[str, str]]) -> str:
    return "\n".join(f"<{tag}>{content}</{tag}>" for tag, content in blocks)


def httpdate(i: int) -> str:
    return format_datetime(START + timedelta(seconds=97 * i), usegmt=True)


# ---- www.sunwind.test ----

SUN_MOST_READ = [f"{S}/solar/rooftop-panels-guide.html", f"{S}/wind/offshore-wind-basics.html",
                 f"{S}/storage/home-batteries.html", f"{S}/storage/green-hydrogen.html",
                 f"{S}/policy/feed-in-tariffs.html"]
SUN_ELSEWHERE = [(f"{N}/", "绿色能源网 (Chinese)"), (f"{W}/", "Weekend Table & Terrace"),
                 (f"{W}/football/derby-report.html", "Derby day: late header settles a tense affair")]


def sun_page(title: str, main: str, url: str, description: str = "", extra_head: str = "") -> str:
    most_read = "".join(f"<li>{link(local(u, S), title_of(u))}</li>" for u in SUN_MOST_READ)
    elsewhere = "".join(f"<li>{link(u, t)}</li>" for u, t in SUN_ELSEWHERE)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{esc(title)} | SunWind Review</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="{esc(description or title)}">
<link rel="canonical" href="{esc(url)}">{extra_head}
</head>
<body>
<header class="masthead">
<a class="logo" href="/">SunWind Review</a>
<p class="tagline">Independent reporting on clean energy</p>
<nav class="main-nav"><ul>
<li><a href="/">Home</a></li><li><a href="/solar/">Solar</a></li><li><a href="/wind/">Wind</a></li>
<li><a href="/about.html">About us</a></li>
</ul></nav>
</header>
<div class="page">
<main id="content">
{main}
</main>
<aside class="sidebar">
<section><h3>Most read</h3><ul>{most_read}</ul></section>
<section><h3>Elsewhere</h3><ul>{elsewhere}</ul></section>
<section><h3>Newsletter</h3><p>Our weekly briefing arrives every Friday. No spam, unsubscribe at any time.</p></section>
</aside>
</div>
<footer class="site-footer">
<p>&copy; 2024 SunWind Review &middot; <a href="/about.html">About</a> &middot; <a href="/">Home</a> &middot; editors@sunwind.test</p>
</footer>
</body>
</html>
"""


def sun_article(art: Article, i: int, draft: bool = False) -> str:
    date = (START - timedelta(days=3 * i + 2)).strftime("%d %B %Y")
    section_url = {"Solar": "/solar/", "Wind": "/wind/"}.get(art.section)
    crumb = link(section_url, art.section) if section_url else esc(art.section)
    figure = ""
    if art.image:
        figure = (f'<figure><img src="{local(art.image, S)}" width="160" height="80" '
                  f'alt="Turbines at sea"><figcaption>Turbines at an offshore wind farm.</figcaption></figure>\n')
    toolbox = "".join(f"<li>{link(local(u, S), t)}</li>" for u, t in art.toolbox if not draft)
    toolbox = f'<ul class="toolbox">{toolbox}</ul>\n' if toolbox else ""
    related = "".join(f"<li>{link(local(u, S), title_of(u))}</li>" for u in art.related)
    title = ("DRAFT: " if draft else "") + art.title
    main = f"""<article>
<p class="breadcrumbs"><a href="/">Home</a> &rsaquo; {crumb}</p>
<h1>{esc(title)}</h1>
<p class="byline">By {esc(art.author)} &middot; {date}</p>
{figure}{body_html(compose(art))}
{toolbox}<div class="related"><h3>Related articles</h3><ul>{related}</ul></div>
</article>"""
    head = '\n<meta name="robots" content="noindex, nofollow">' if draft else ""
    return sun_page(title, main, art.url, art.lead[0], head)


def sun_listing(urls: list[str]) -> str:
    items = []
    for u in urls:
        art = BY_URL[u]
        items.append(f"<li><h3>{link(local(u, S), art.title)}</h3><p>{esc(art.lead[0])}</p></li>")
    return '<ul class="teasers">\n' + "\n".join(items) + "\n</ul>"


def sun_home() -> str:
    latest = [a.url for a in ARTICLES if a.url.startswith(S)][:10]
    more = [a.url for a in ARTICLES if a.url.startswith(S)][10:]
    more_list = "".join(f"<li>{link(local(u, S), title_of(u))}</li>" for u in more)
    main = f"""<h1>SunWind Review</h1>
<p class="intro">News, explainers and practical guides on solar, wind, water and the grid that ties them together.</p>
<h2>Latest articles</h2>
{sun_listing(latest)}
<h2>More topics</h2>
<ul>{more_list}</ul>"""
    return sun_page("Clean energy news and guides", main, f"{S}/")


def sun_section(name: str, path: str, subject: str) -> str:
    urls = [a.url for a in ARTICLES if a.url.startswith(S) and subject in a.subjects]
    extra = (f"<p>Download our {link(local(PDF_URL, S), 'solar fact sheet (PDF)')}.</p>"
             if subject == SOLAR else "")
    main = f"""<p class="breadcrumbs"><a href="/">Home</a> &rsaquo; {name}</p>
<h1>{name}</h1>
<p>All our {name.lower()} coverage in one place.</p>
{extra}
{sun_listing(urls)}"""
    return sun_page(name, main, f"{S}{path}")


def sun_about() -> str:
    main = """<h1>About SunWind Review</h1>
<p>SunWind Review is a small independent magazine. Our editors and freelance writers report on how clean energy is built, financed and used, from rooftop panels to offshore wind farms.</p>
<p>We do not accept payment for coverage. Corrections are published at the foot of the article concerned. Write to the editors at editors@sunwind.test.</p>"""
    return sun_page("About us", main, f"{S}/about.html")


# ---- www.nengyuan.test ----

NY_HOT = [f"{N}/taiyangneng/guangfu-fadian.html", f"{N}/fengneng/haishang-fengdian.html",
          f"{N}/chuneng/chuneng-dianzhan.html", f"{N}/news/2023/kezaisheng-zhengce.html"]
NY_LIFE = [a.url for a in ARTICLES if a.url.startswith(f"{N}/shenghuo/")]
NY_FRIENDS = [(f"{S}/", "SunWind Review"), (f"{W}/", "Weekend Table & Terrace")]


def ny_page(title: str, main: str, url: str, legacy: bool, keywords: str = "") -> str:
    hot = "<br>\n".join(link(local(u, N), title_of(u)) for u in NY_HOT)
    life = "<br>\n".join(link(local(u, N), title_of(u)) for u in NY_LIFE)
    friends = "<br>\n".join(link(u, t) for u, t in NY_FRIENDS)
    nav = ('<a href="/">首页</a> | <a href="/taiyangneng/guangfu-fadian.html">太阳能</a> | '
           '<a href="/fengneng/haishang-fengdian.html">风能</a> | <a href="/chuneng/chuneng-dianzhan.html">储能</a> | '
           '<a href="/news/">资讯</a> | <a href="/shenghuo/meishi/hongshaorou.html">生活频道</a> | '
           '<a href="/search?q=%E5%A4%AA%E9%98%B3%E8%83%BD">站内搜索</a> | <a href="/about.html">关于我们</a>')
    if legacy:  # the old GBK templates: HTML 4, table layout
        return f"""<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<html>
<head>
<meta http-equiv="Content-Type" content="text/html; charset=gb2312">
<title>{esc(title)}_绿色能源网</title>
<meta name="keywords" content="{esc(keywords)}">
</head>
<body>
<table width="960" align="center" border="0"><tr><td><a href="/"><b>绿色能源网</b></a> 可再生能源资讯门户</td></tr></table>
<div id="nav">{nav}</div>
<table width="960" align="center" border="0"><tr>
<td width="220" valign="top" class="left">
<b>热点推荐</b><br>
{hot}<br>
<b>生活频道</b><br>
{life}<br>
<b>友情链接</b><br>
{friends}
</td>
<td valign="top" class="main">
{main}
</td></tr></table>
<div class="footer">版权所有 &copy; 2006-2024 绿色能源网 | <a href="/about.html">关于我们</a> | <a href="/">返回首页</a></div>
</body>
</html>
"""
    return f"""<!DOCTYPE html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<title>{esc(title)} - 绿色能源网</title>
<meta name="keywords" content="{esc(keywords)}">
</head>
<body>
<div class="top"><a class="logo" href="/">绿色能源网</a><span>可再生能源资讯门户</span></div>
<div class="nav">{nav}</div>
<div class="wrap">
<div class="main">
{main}
</div>
<div class="side">
<div class="box"><h3>热点推荐</h3><p>{hot}</p></div>
<div class="box"><h3>生活频道</h3><p>{life}</p></div>
<div class="box"><h3>友情链接</h3><p>{friends}</p></div>
</div>
</div>
<div class="footer">版权所有 &copy; 2006-2024 绿色能源网 | <a href="/about.html">关于我们</a> | <a href="/">返回首页</a></div>
</body>
</html>
"""


def ny_article(art: Article, i: int) -> str:
    date = (START - timedelta(days=5 * i + 1)).strftime("%Y-%m-%d")
    related = "".join(f"<li>{link(local(u, N), title_of(u))}</li>" for u in art.related)
    section_link = {"资讯": "/news/"}.get(art.section)
    crumb = link(section_link, art.section) if section_link else esc(art.section)
    main = f"""<div class="position">当前位置：<a href="/">首页</a> &gt; {crumb}</div>
<h1>{esc(art.title)}</h1>
<div class="info">来源：绿色能源网　作者：{esc(art.author)}　发布时间：{date}</div>
<div class="content">
{body_html(compose(art))}
</div>
<div class="xiangguan"><b>相关文章</b><ul>{related}</ul></div>"""
    keywords = "可再生能源,新能源" if COOKING not in art.subjects and FOOTBALL not in art.subjects else "生活,美食,体育"
    return ny_page(art.title, main, art.url, art.encoding == "gbk", keywords)


def ny_home() -> str:
    energy = [a.url for a in ARTICLES if a.url.startswith(N) and "/shenghuo/" not in a.url
              and "/news/" not in a.url]
    items = "".join(f"<li>{link(local(u, N), title_of(u))}</li>" for u in energy)
    life = "".join(f"<li>{link(local(u, N), title_of(u))}</li>" for u in NY_LIFE)
    main = f"""<h1>绿色能源网</h1>
<p>关注太阳能、风能、水电、储能等可再生能源的最新动态，同时为读者提供美食、体育等生活资讯。</p>
<h2>能源专题</h2><ul>{items}</ul>
<h2><a href="/news/">资讯</a></h2><p>往期新闻请进入资讯栏目浏览。</p>
<h2>生活频道</h2><ul>{life}</ul>"""
    return ny_page("首页", main, f"{N}/", False, "可再生能源,新能源,光伏,风电")


def ny_news_index() -> str:
    news = [a.url for a in ARTICLES if a.url.startswith(f"{N}/news/")]
    items = "".join(f"<li>{link(local(u, N), title_of(u))}</li>" for u in news)
    main = f"""<div class="position">当前位置：<a href="/">首页</a> &gt; 资讯</div>
<h1>资讯</h1><ul>{items}</ul>"""
    return ny_page("资讯", main, f"{N}/news/", True, "新闻,资讯")


def ny_about() -> str:
    main = """<h1>关于我们</h1>
<p>绿色能源网创办于二〇〇六年，是一家关注可再生能源行业的资讯网站。</p>
<p>本站内容由编辑部原创或整理，欢迎读者来信交流。</p>"""
    return ny_page("关于我们", main, f"{N}/about.html", False)


# ---- www.weekend.test ----

W_RECIPES = [a.url for a in ARTICLES if a.url.startswith(f"{W}/recipes/")]
W_FOOTBALL = [a.url for a in ARTICLES if a.url.startswith(f"{W}/football/")]


def wk_page(title: str, main: str) -> str:
    recipes = "".join(f"<li>{link(u, title_of(u))}</li>" for u in W_RECIPES)
    football = "".join(f"<li>{link(u, title_of(u))}</li>" for u in W_FOOTBALL)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8">
<title>{esc(title)} - Weekend Table &amp; Terrace</title>
</head>
<body>
<div id="header"><a href="{W}/"><strong>Weekend Table &amp; Terrace</strong></a> <em>food and football for slow weekends</em></div>
<div id="menu"><a href="{W}/">Home</a> &middot; <a href="{W}/recipes/slow-roast-lamb.html">Recipes</a> &middot; <a href="{W}/football/derby-report.html">Football</a> &middot; <a href="{W}/calendar/">What's on</a> &middot; <a href="{W}/cart/">Basket</a> &middot; <a href="{W}/about.html">About</a></div>
<div id="columns">
<div id="left">
<div class="widget"><h4>Recipes</h4><ul>{recipes}</ul></div>
<div class="widget"><h4>Football</h4><ul>{football}</ul></div>
<div class="widget"><h4>Friends</h4><ul><li><a href="{N}/">绿色能源网</a></li></ul></div>
</div>
<div id="body">
{main}
</div>
</div>
<div id="footer">Weekend Table &amp; Terrace &middot; <a href="{W}/about.html">About</a> &middot; <a href="{W}/calendar/">What's on</a></div>
</body>
</html>
"""


def wk_article(art: Article, i: int) -> str:
    date = (START - timedelta(days=2 * i + 3)).strftime("%A %d %B %Y")
    related = "".join(f"<li>{link(u, title_of(u))}</li>" for u in art.related)
    main = f"""<div class="post">
<h1>{esc(art.title)}</h1>
<div class="meta">{esc(art.section)} &middot; {esc(art.author)} &middot; {date}</div>
{body_html(compose(art))}
<div class="more"><h4>You might also like</h4><ul>{related}</ul></div>
</div>"""
    return wk_page(art.title, main)


def wk_home() -> str:
    teasers = "\n".join(f"<div class=\"teaser\"><h2>{link(u, title_of(u))}</h2><p>{esc(BY_URL[u].lead[0])}</p></div>"
                        for u in W_RECIPES[:3] + W_FOOTBALL[:3])
    main = f"""<h1>This weekend</h1>
<p>Recipes worth the time, football worth the trip, and what's on in town.</p>
{teasers}
<p><a href="{W}/calendar/">See the full events calendar</a></p>"""
    return wk_page("Home", main)


def wk_about() -> str:
    main = """<h1>About</h1>
<p>Weekend Table &amp; Terrace is written by a handful of friends who like long lunches and Saturday afternoons at the ground.</p>
<p>We test every recipe at least twice. Match reports are written from the stands, not the press box.</p>"""
    return wk_page("About", main)


def wk_cart() -> str:
    return wk_page("Basket", "<h1>Your basket</h1>\n<p>Your basket is empty. Browse our cookbooks and scarves in the shop.</p>")


def wk_calendar_index() -> str:
    months = "".join(f"<li><a href=\"{W}/calendar/2024/{m:02d}/\">{MONTHS[m - 1]} 2024</a></li>" for m in range(1, 13))
    main = f"<h1>What's on</h1>\n<p>Markets, matches and festivals, month by month.</p>\n<ul>{months}</ul>"
    return wk_page("What's on", main)


def calendar_url(year: int, month: int) -> str:
    return f"{W}/calendar/{year}/{month:02d}/"


def wk_calendar_month(month: int) -> str:
    prev_url = calendar_url(2023, 12) if month == 1 else calendar_url(2024, month - 1)
    next_url = calendar_url(2025, 1) if month == 12 else calendar_url(2024, month + 1)
    events = [CALENDAR_EVENTS[(month + k) % len(CALENDAR_EVENTS)] for k in range(2)]
    main = (f"<h1>What's on: {MONTHS[month - 1]} 2024</h1>\n<ul>"
            + "".join(f"<li>{esc(e)}</li>" for e in events)
            + f"</ul>\n<p><a href=\"{prev_url}\">&laquo; Previous month</a> | "
              f"<a href=\"{W}/calendar/\">All months</a> | <a href=\"{next_url}\">Next month &raquo;</a></p>")
    return wk_page(f"{MONTHS[month - 1]} 2024", main)


def not_found_page(host: str) -> bytes:
    return (f"<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body>"
            f"<h1>Not Found</h1><p>The page you asked for is not on {host.split('//')[1]}.</p>"
            f'<p><a href="{host}/">Home page</a></p></body></html>\n').encode()


# ---- non-HTML responses ----

def make_pdf(lines: list[str]) -> bytes:
    """A one-page PDF (Helvetica text) with a correct cross-reference table."""
    stream = "BT /F1 14 Tf 56 780 Td 18 TL " + " ".join(
        "(" + s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ") '" for s in lines) + " ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream",
        "<< /Title (Solar fact sheet) /Producer (crawler.demo.build) >>",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, obj in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(f"{n} 0 obj\n{obj}\nendobj\n".encode("latin-1"))
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for off in offsets:
        out.write(f"{off:010d} 00000 n \n".encode())
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    return out.getvalue()


def make_png(width: int = 160, height: int = 80) -> bytes:
    """A small RGB picture: sky gradient over a sea band with a row of white turbine masts."""
    rows = []
    for y in range(height):
        row = bytearray([0])
        for x in range(width):
            if y > height * 0.7:
                pixel = (20, 60 + y // 2, 120 + y // 2)
            elif x % 32 == 16 and y > height * 0.3:
                pixel = (245, 245, 245)
            else:
                pixel = (110 + y, 160 + y // 2, 230)
            row += bytes(min(255, c) for c in pixel)
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


# --------------------------------------------------------------------------------------------
# Assembly
# --------------------------------------------------------------------------------------------


@dataclass
class Response:
    url: str
    status: int
    body: bytes
    content_type: str
    location: str | None = None
    subjects: list[str] | None = None   # None: not in labels.csv (non-HTML, redirect, 404)


def html_response(url: str, text: str, subjects: list[str], encoding: str = "utf-8",
                  header_charset: str = "utf-8") -> Response:
    return Response(url, 200, text.encode(encoding), f"text/html; charset={header_charset}",
                    subjects=subjects)


def build_responses() -> list[Response]:
    out: list[Response] = []
    for host in (S, N, W):
        out.append(Response(f"{host}/robots.txt", 200, ROBOTS[host].encode(), "text/plain; charset=utf-8"))
    # www.sunwind.test
    out.append(html_response(f"{S}/", sun_home(), []))
    out.append(html_response(f"{S}/about.html", sun_about(), []))
    out.append(html_response(f"{S}/solar/", sun_section("Solar", "/solar/", SOLAR), []))
    out.append(html_response(f"{S}/wind/", sun_section("Wind", "/wind/", WIND), []))
    for i, art in enumerate(a for a in ARTICLES if a.url.startswith(S)):
        out.append(html_response(art.url, sun_article(art, i), art.subjects))
    offshore = BY_URL[f"{S}/wind/offshore-wind-basics.html"]
    out.append(html_response(DRAFT_URL, sun_article(offshore, 0, draft=True), []))
    body = (f'<html><head><title>301 Moved Permanently</title></head><body><p>Moved permanently to '
            f'<a href="{REDIRECT[1]}">{REDIRECT[1]}</a></p></body></html>\n').encode()
    out.append(Response(REDIRECT[0], 301, body, "text/html; charset=utf-8", location=REDIRECT[1]))
    out.append(Response(PDF_URL, 200, make_pdf([
        "SunWind Review - Solar fact sheet",
        "A 4 kW rooftop system covers about 20 square metres.",
        "Typical module efficiency: 18 to 22 percent.",
        "Modules keep 80 percent of rated power after 25 years.",
        "Ask your installer for the expected annual yield in kWh."]), "application/pdf"))
    out.append(Response(PNG_URL, 200, make_png(), "image/png"))
    # www.nengyuan.test
    out.append(html_response(f"{N}/", ny_home(), []))
    out.append(html_response(f"{N}/about.html", ny_about(), []))
    out.append(html_response(f"{N}/news/", ny_news_index(), [], "gbk", "gbk"))
    for i, art in enumerate(a for a in ARTICLES if a.url.startswith(N)):
        out.append(html_response(art.url, ny_article(art, i), art.subjects, art.encoding, art.header_charset))
    # www.weekend.test
    out.append(html_response(f"{W}/", wk_home(), []))
    out.append(html_response(f"{W}/about.html", wk_about(), []))
    out.append(html_response(f"{W}/cart/", wk_cart(), []))
    for i, art in enumerate(a for a in ARTICLES if a.url.startswith(W)):
        out.append(html_response(art.url, wk_article(art, i), art.subjects))
    out.append(html_response(f"{W}/calendar/", wk_calendar_index(), []))
    for month in range(1, 13):
        out.append(html_response(calendar_url(2024, month), wk_calendar_month(month), []))
    for url in RECORDED_404:
        host = url.split("/", 3)
        out.append(Response(url, 404, not_found_page(f"{host[0]}//{host[2]}"), "text/html; charset=utf-8"))
    return out


def http_headers(resp: Response, i: int) -> list[tuple[str, str]]:
    host = "http://" + resp.url.split("/", 3)[2]
    headers = [("Date", httpdate(i)), ("Server", SERVERS.get(host, "nginx/1.24.0"))]
    if resp.status == 200:
        headers.append(("Last-Modified", format_datetime(START - timedelta(days=30 + i % 11), usegmt=True)))
    if resp.location:
        headers.append(("Location", resp.location))
    headers += [("Content-Type", resp.content_type), ("Content-Length", str(len(resp.body))),
                ("Connection", "close")]
    return headers


REASONS = {200: "OK", 301: "Moved Permanently", 404: "Not Found"}


def write_warc(responses: list[Response], path: Path) -> None:
    buf = io.BytesIO()
    writer = WARCWriter(buf, gzip=True, warc_version="WARC/1.1")
    info = (b"software: crawler.demo.build\r\nformat: WARC File Format 1.1\r\n"
            b"description: demo test web: renewable energy and off-topic neighbours on three .test hosts\r\n")
    info_headers = StatusAndHeaders("", [
        ("WARC-Type", "warcinfo"),
        ("WARC-Record-ID", f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, 'warcinfo:' + path.name)}>"),
        ("WARC-Filename", path.name),
        ("WARC-Date", START.strftime("%Y-%m-%dT%H:%M:%SZ")),
    ], protocol="WARC/1.1")
    writer.write_record(writer.create_warc_record("", "warcinfo", payload=io.BytesIO(info), length=len(info),
                                                  warc_headers=info_headers,
                                                  warc_content_type="application/warc-fields"))
    for i, resp in enumerate(responses):
        status = StatusAndHeaders(f"{resp.status} {REASONS[resp.status]}", http_headers(resp, i),
                                  protocol="HTTP/1.1")
        date = (START + timedelta(seconds=97 * i)).strftime("%Y-%m-%dT%H:%M:%SZ")
        record = writer.create_warc_record(
            resp.url, "response", payload=io.BytesIO(resp.body), length=len(resp.body),
            http_headers=status,
            warc_headers_dict={"WARC-Date": date,
                               "WARC-Record-ID": f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, resp.url)}>"})
        writer.write_record(record)
    path.write_bytes(buf.getvalue())


def write_labels(responses: list[Response], path: Path) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["url", "subjects"])
        for resp in responses:
            if resp.subjects is not None:
                out.writerow([resp.url, ";".join(resp.subjects)])


TOPIC_TOML = """\
# The demo topic.  Evaluate with the labels.csv prefix "subject.Energy".
name = "renewable-energy"
description = "Renewable energy: solar, wind, hydro, geothermal and bioenergy, energy storage and green hydrogen, and the policies that support them (English and Chinese pages)."
languages = ["en", "zh"]
threshold = 0.2
seeds = [{seeds}]

[features]
# subjects: the bodies involved; terms: domain terms; judgments: words that signal a substantive report
subjects = ["utility", "grid operator", "developer", "installer", "energy cooperative", "wind farm", "solar farm", "power station", "电网公司", "发电企业", "能源局", "风电场", "光伏电站"]
terms = ["renewable energy", "solar", "photovoltaic", "solar panel", "wind power", "wind turbine", "offshore wind", "hydropower", "tidal", "geothermal", "heat pump", "biogas", "bioenergy", "energy storage", "battery", "green hydrogen", "electrolyser", "feed-in tariff", "可再生能源", "新能源", "太阳能", "光伏", "风电", "风能", "水电", "地热", "生物质", "储能", "绿氢", "电解槽"]
judgments = ["installed capacity", "megawatt", "gigawatt", "kilowatt-hour", "capacity factor", "grid connection", "commissioned", "subsidy", "auction", "emissions", "装机容量", "并网", "投产", "发电量", "千瓦", "补贴", "减排", "消纳"]

[synonyms]
solar = ["photovoltaic", "PV", "太阳能", "光伏"]
wind = ["wind power", "wind turbine", "风能", "风电"]
hydropower = ["hydro", "hydroelectric", "水电", "水力发电"]
geothermal = ["ground-source", "地热"]
bioenergy = ["biogas", "biomass", "biofuel", "生物质", "沼气"]
storage = ["battery", "batteries", "储能", "电池"]
hydrogen = ["green hydrogen", "electrolysis", "绿氢", "氢能"]
renewable = ["renewables", "clean energy", "green energy", "可再生能源", "新能源", "清洁能源"]
"""


def build(out_dir: Path = HERE) -> dict[str, int]:
    """Write ``web.warc.gz``, ``labels.csv``, ``seeds.txt`` and ``topic.toml`` into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    responses = build_responses()
    urls = [r.url for r in responses]
    assert len(urls) == len(set(urls)), "duplicate URL"
    for url in UNRECORDED:
        assert url not in urls
    write_warc(responses, out_dir / "web.warc.gz")
    write_labels(responses, out_dir / "labels.csv")
    (out_dir / "seeds.txt").write_text("".join(s + "\n" for s in SEEDS), encoding="utf-8")
    seeds = ", ".join(f'"{s}"' for s in SEEDS)
    (out_dir / "topic.toml").write_text(TOPIC_TOML.format(seeds=seeds), encoding="utf-8")
    return {"urls": len(responses),
            "labelled": sum(1 for r in responses if r.subjects is not None),
            "on_topic": sum(1 for r in responses if r.subjects and any(s.startswith("subject.Energy") for s in r.subjects)),
            "warc_bytes": (out_dir / "web.warc.gz").stat().st_size}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Generate the built-in demo test web.")
    parser.add_argument("--out", type=Path, default=HERE, help="output folder (default: crawler/demo)")
    args = parser.parse_args(argv)
    counts = build(args.out)
    print(" ".join(f"{k}={v}" for k, v in counts.items()), "->", args.out)


if __name__ == "__main__":
    main()
