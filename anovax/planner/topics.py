"""The topics a clause can be about when the command grammar did not read it.

Two kinds of table, both data: out-of-scope topics (``DOMAINS``: alarms, calendar, lights...)
that the offline planner declines in a plain sentence, and cues for information a web search
answers well (weather, news, prices...), for media requests and for question shapes.
``cues.py`` reads them in order; ``domain`` is the one lookup several builders share.
"""

from __future__ import annotations

import re

# --- out-of-scope topics ----------------------------------------------------------------------
# (name, cue regex, reply). The reply says plainly what the offline planner cannot do. Checked
# in order on a clause the command grammar did not match, before any web-search fallback, so
# a personal request ("what's on my calendar") is never sent to a search engine.

#: the timer domain's reply when its words name a timer but not what or when: the request was
#: not read (the voice gate's trust check takes it as not understood: voice/understand.py)
TIMER_NOT_READ = "I can't tell what or when from that"

DOMAINS: tuple[tuple[str, re.Pattern[str], str], ...] = tuple(
    (name, re.compile(p, re.I), say)
    for name, p, say in (
        (
            # timers and reminders are tools now: this is for the words the grammar could not read
            "alarm",
            r"\b(?:alarms?|wake me|wake up call|wake-up|wakeup|timers?|snooze|stopwatch|countdown|reminders?|remind me|remind\b|alert me)\b",
            f"I can set timers and reminders, but {TIMER_NOT_READ}: say, for example, "
            "'set a timer for 5 minutes' or 'remind me at 3 pm to call mum'.",
        ),
        (
            "calendar",
            r"\b(?:calendar|agenda|appointments?|meetings?|remember to|tell me to\b|schedule|scheduled|events? (?:on|for|at) my|my (?:events?|plans?|day|week|weekend|birthday|anniversary)|what am i doing|am i (?:free|busy)|do i have (?:anything|plans))",
            "I can't read or change your calendar offline.",
        ),
        (
            "phone",
            r"^(?:call|phone|ring|dial|text|sms|message|whatsapp|facetime|skype)\s+(?!me\b)\w+|\b(?:make a (?:phone |video )?call|send (?:a |an )?(?:text|sms)|video call)\b",
            "I can't make calls or send text messages offline.",
        ),
        (
            "email",
            r"\b(?:e-?mails?|mails?|inbox|gmail|outlook|unread|reply|respond to|contacts?|phone ?book|address book|phone numbers?|call (?:my|mom|dad|him|her)|text (?:my|mom|dad|him|her)|send (?:a |an )?(?:message|text|sms)|messages?\b)",
            "I can't read or send e-mail or messages, or look up contacts, offline.",
        ),
        (
            "lists",
            r"(?<!play )(?<=\s)lists?\b|^lists?\s*$|^lists\b|\bto-?do\b|\btodo\b",
            "I can't keep or read lists offline.",
        ),
        (
            "system",
            r"\b(?:wi-?fi|bluetooth|airplane mode|flight mode|hotspot|screen brightness|display brightness|dark mode|night mode|do not disturb|battery saver|power saving)\b"
            r"|\b(?:switch|change|set|update|move)\b.{0,24}\btime ?zones?\b"
            r"|\b(?:switch|change|set|go|move|use)\b.{0,20}\b(?:eastern|western|central|pacific|mountain|atlantic|utc|gmt|"
            r"daylight sav\w*|standard|24[- ]hour|twenty four hour|12[- ]hour|twelve hour|military) (?:time|clock)\b"
            r"|\b(?:switch|change|set|go|move)\b.{0,12}\b(?:utc|gmt)$",
            "I can't change system settings offline.",
        ),
        (
            "lights",
            r"\b(?:lights?|lighting|lamps?|bulbs?|brightness|brighten|dim\b|dimmer|too (?:bright|dark)|it's dark|is dark|darker|brighter|hue)\b",
            "I can't control lights or smart-home devices.",
        ),
        (
            "smart_home",
            r"\b(?:vacuum|roomba|cleaner|clean (?:the|my)|clean ?up|clean-up|cleaning|coffee|espresso|latte|cappuccino|tea maker|kettle|thermostat|heating|heater|air ?con|fan\b|smart plug|plug socket|socket|wemo|sockets?|plug\b|garage|door lock|blinds|curtains|sprinklers?|"
            r"security system|alarm system|smoke (?:detector|alarm)|doorbell|(?:un)?lock (?:the |my )?(?:front |back )?(?:door|car|gate))\b",
            "I can't control smart-home devices like that.",
        ),
        (
            "volume",
            r"\b(?:volume|mute|unmute|louder|quieter|softer|speak up|be quiet|shut up|stop talking|silence|muted|too loud)\b",
            "I can't change the volume or mute myself offline.",
        ),
        (
            "playback",
            r"\b(?:shuffle|repeat (?:this|the|that)|repeat\b|loop (?:this|the)|skip|next (?:song|track|episode|chapter)|previous (?:song|track|episode)|pause|rewind|fast forward|stop (?:the |this )?(?:music|song|podcast|audio|playing|playback))\b",
            "I can't control playback offline; I can only search YouTube for something new to play.",
        ),
        (
            "music_taste",
            r"\b(?:(?:delete|remove|erase|clear|create|make|rename|edit|add) .{0,30}?\b(?:playlists?|play list|songs?|music|tracks?|albums?)|(?:this|that|current|currently playing|now playing|the playing) (?:song|track|music|album|riff|tune|artist|singer)|never (?:ever )?play|check my playlists?|what(?:'s| is) (?:this|the) (?:song|track)|(?:song|music|track)s? (?:is |that's |that is )?playing|name of (?:this|the) (?:song|track|band|group|artist)|who (?:sings|sang) (?:this|that)|lyrics|i (?:like|love|hate|don't like|dislike) (?:this|that|the)? ?(?:song|track|music|album|band|artist|genre)s?|(?:favou?rite|like|save|rate|add) (?:this|that|the current) (?:song|track)|my favou?rite (?:singer|band|artist|genre) is|i (?:like|love|hate|enjoy) \w+ music)\b",
            "I can't manage your music library or remember your music taste offline; I can only search YouTube for something to play.",
        ),
        (
            "game",
            r"\b(?:(?:play|playing|start|open|launch) (?:a |an |some |the |my )?(?:\w+ )?(?:games?|chess|poker|checkers|tic tac toe|trivia|puzzles?|quiz|snake|cards|sudoku|hangman|solitaire|rock paper scissors|scrabble|monopoly)|game of|let'?s play|let us play|want to play|(?:play|playing) .{1,30} with me|solve (?:the|a|this) puzzle)\b",
            "I can't play games offline.",
        ),
        (
            "shopping",
            r"\b(?:order (?:me |a |an |some |the |two |three |food|pizza|takeout|takeaway|chinese|indian|thai|delivery)|takeaway|take away|takeout|deliver(?:y|ed|ing|s)?|buy|purchase|book (?:a |an |me |my |the |us )?(?:\w+ )?(?:table|flights?|tickets?|train|taxi|cab|ride|hotel|room|seats?|trip|car|uber|restaurant)|reserve|reservation|tickets?|uber|lyft|taxi|cab\b|a ride|catch a ride)\b",
            "I can't order, book or buy things for you offline.",
        ),
        (
            "social",
            r"\b(?:tweet|twitter|facebook|instagram|tumblr|snapchat|linkedin|social media|post (?:to|on|a|my|this|that)|status update|my feed|news ?feed|followers?)\b",
            "I can't read or post to social media offline.",
        ),
        (
            "personal",
            r"\b(?:my (?:location|address|account|phone|password|health|steps|order|package|bill|bills|bank|balance|car|home|house|room|"
            r"files|downloads|documents|folders?|hard drive)|where am i|where i am|where is my)\b",
            "I can't see your personal information offline.",
        ),
    )
)

# --- information topics that a web search answers well -------------------------------------

WEATHER_CUE = re.compile(
    r"\b(?:weather|forecast|rain\w*|snow\w*|sunny|sunshine|cloudy|clouds?|overcast|temperatures?|degrees|humid\w*|windy|wind|storms?|stormy|thunder\w*|hail|fog\w*|"
    r"umbrella|sunscreen|jacket|coat|shorts|sweater|layers|gloves|scarf|boots|should i wear|what (?:should|can) i wear|cold outside|hot outside|warm outside|cold today|hot today|warm today|"
    r"(?:be|is it|it be) (?:cold|hot|warm|chilly|nice|freezing)|how (?:hot|cold|warm|chilly)|going to be (?:hot|cold|warm|nice|sunny|rainy|windy|chilly)|freezing|climate|heat ?wave|uv index|pollen)\b",
    re.I,
)
NEWS_CUE = re.compile(
    r"\b(?:news|headlines?|articles?|breaking|newspaper|gossip|updates? (?:on|about|from)|latest (?:on|about|from|in)|"
    r"what'?s (?:happening|going on|new) (?:in|with|at|around)|what is (?:happening|going on|new) (?:in|with|at|around)|"
    r"new york times|bbc|cnn|fox news|reuters|press conference|election|poll)\b",
    re.I,
)
STOCK_CUE = re.compile(
    r"\b(?:stocks?|shares? price|share prices?|stock market|dow jones|dow|nasdaq|s ?& ?p|ftse|nikkei|trading at|closing price|opening price|market cap|ticker)\b",
    re.I,
)
CURRENCY_CUE = re.compile(
    r"\b(?:exchange rates?|exchange|currency|currencies|conversion rate|dollars?|euros?|yen|rupees?|pounds? sterling|pesos?|francs?|yuan|bitcoin|usd|inr|gbp|eur|cad|aud|u\. ?s\. ?d)\b",
    re.I,
)
MATHS_CUE = re.compile(
    r"\b(?:\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand)\b.{0,20}?"
    r"\b(?:plus|minus|times|multiplied by|divided by|over|squared|cubed|to the power(?: of)?)\b|\bsquare root\b|\bcube root\b|\bpercent of\b|\bfactorial\b"
    r"|\bhow many \w+ (?:in|are in|make|per) (?:a |an |one )?\w+|\bconvert\b|\bcalculate\b|\bsolve\b"
    # "half of 250", "square of 12", "100 fahrenheit in celsius": arithmetic and units said as nouns
    r"|^(?:a |one )?(?:half|third|quarter|double|triple|square|cube|twice|sum|product|average) of \d"
    r"|^[\d.,]+ ?(?:degrees? )?(?:fahrenheit|celsius|centigrade|miles?|kilometers?|kilometres?|km|feet|foot|inches?|cm|"
    r"centimeters?|meters?|metres?|pounds?|lbs?|kilos?|kilograms?|kg|grams?|ounces?|oz|gallons?|liters?|litres?|cups?|"
    r"tablespoons?|teaspoons?|yards?|acres?|hectares?) (?:in|to|into|as) \w+",
    re.I,
)
DEFINE_CUE = re.compile(
    r"^(?:define|definition|meaning|describe|explain|spell)\b|^(?:the |a )?word for \w+|\b(?:definition|meaning|synonyms?|antonyms?|spell(?:ing|ed)?|pronounce|description|describe|the word)\b|what does .{1,40} (?:mean|stand for)",
    re.I,
)
JOKE_CUE = re.compile(
    r"\b(?:jokes?|joking|funny|make me laugh|something funny|be funny|humou?r|pun|knock knock|riddle|cheer me up)\b", re.I
)
#: a request to play or listen to media ("play", "put on", "listen to", radio, podcast, audiobook)
MEDIA_CUE = re.compile(
    r"\b(?:play|playing|plays|listen|listening|hear|put on|tune (?:in|into|to)|radio|fm|am radio|where (?:i|we) (?:left off|stopped|paused)|(?<!railway )(?<!train )(?<!bus )(?<!gas )(?<!police )(?<!fire )(?<!petrol )(?<!space )station|channel|frequency|broadcast|podcasts?|audio ?books?|episode|playlists?|songs?|music|album|tracks?)\b",
    re.I,
)
#: start of a question that a web search can answer ("who is", "how tall", "is pink ...")
#: words ending in -est that are not superlatives ("the test editor" is an app, not a question)
_NOT_SUPERLATIVE = (r"(?:[a-z]?|ch|gu|qu|con|prot|re|requ|inter|for|hon|mod|man|dig|inv|sugg|harv|arr|"
                    r"att|prot|cont|det|inf|ingu)est\b")
QUESTION_START = re.compile(
    r"^(?:what|what's|whats|who|who's|whos|whom|whose|where|where's|when|when's|why|which|how|how's|hows|"
    r"is|are|was|were|has|have|had|does|do|did|can|could|will|would|should|shall|"
    r"tell me (?:about|what|who|where|when|why|how|if|whether)|tell me the|give me (?:information|info|details|the)|"
    r"find (?:out|me|information|info)|i (?:want|need|would like|'d like) to know|do you know|search|look up|explain|describe|"
    r"tell me|give me|show me (?:the |a |some )?(?:bio|biography|information|info|details|facts|history|list|pictures?|photos?|images?|population|distance|height|age|size)|show (?:me )?(?:the )?bio|list (?:the |all |top )|at what|in what|on what|from what|for what|"
    # asked without a question word: "i wonder who ...", "(i'd like to) know the ...", "facts about dolphins"
    r"(?:i )?(?:wonder|was wondering|am wondering|'m wondering)(?= (?:what|who|where|when|why|which|how|if|whether)\b)|"
    r"know (?:the|what|who|where|when|why|which|how|if|whether|about)|"
    r"(?:some |any |more )?(?:facts?|information|info|details|history|biography|bio|background|trivia) (?:about|on|of|regarding|for)|"
    r"wikipedia|(?:any|got any|have you any|no) idea (?=(?:what|who|where|when|why|which|how|if|whether)\b)|"
    r"curious (?:about|what|who|where|when|why|which|how|if|whether)|(?:i'd|i would) love to know|"
    # a question said as its noun: "population of india", "capital of france", "lakers score"
    r"(?:the )?(?:capital|population|height|length|width|depth|weight|size|area|distance|age|price|cost|value|"
    r"president|prime minister|ceo|founder|author|inventor|speed|meaning|opposite|synonyms?|antonyms?|origin|"
    r"scores?|results?|currency|language|languages|net worth|gdp|boiling point|melting point|release date|cast|"
    r"director|winner|winners|owner|mayor|governor|leader|capital city|national \w+|official \w+|"
    r"calories|nutrition|ingredients|steps|tips|benefits|symptoms|side effects|causes|effects|reviews?|ratings?|"
    r"pros and cons|difference|differences|plot|summary|rules|definition|birthplace|birthday|date of birth|lifespan|"
    r"life expectancy|temperature|weather|lyrics meaning) "
    r"(?:of|to|for|in|from|between)\b|"
    # "einstein's birthday", "obama's height": a fact about someone, said as its noun
    r"(?!(?:mum|mom|mother|dad|father|wife|husband|sister|brother|son|daughter|grandma|grandpa|granny|aunt|uncle|"
    r"cousin|friend|boss|partner|girlfriend|boyfriend|niece|nephew|baby|kid|child)'s)[a-z]+'s (?:birthday|height|age|wife|husband|children|kids|net worth|real name|birthplace|nationality|"
    r"first album|latest album|last album|first movie|latest movie|population|capital|currency|president)$|"
    r"summari[sz]e|(?:top|highest|best|lowest|worst)[ -]rated|"
    r"(?:[a-z']+ ){1,3}(?:score|scores|standings|fixtures|results)(?: (?:today|tonight|last night|yesterday|so far))?$|"
    r"(?:the )?(?:(?!" + _NOT_SUPERLATIVE + r")\w+est|most \w+|best|worst) \w+)\b",
    re.I,
)
#: questions about the assistant itself ("what is your favourite colour")
ABOUT_ME = re.compile(
    r"\b(?:your|yourself|you're|youre|are you|do you (?:like|love|hate|have|think|feel|want|believe|dream|sleep|eat|prefer|miss|enjoy)|"
    r"can you (?:feel|love|think|dream)|can'?t you|can you not|you (?:like|love|think|feel))\b",
    re.I,
)
#: questions about the user's own data, which a web search cannot answer
PERSONAL_Q = re.compile(r"\b(?:my|mine|do i have|did i|have i|am i|was i|were we)\b", re.I)
RECOMMEND_CUE = re.compile(
    r"\b(?:recommend\w*|suggest\w*|what should i (?:watch|read|eat|cook|listen to|buy|visit)|worth (?:watching|reading|visiting))\b", re.I
)
RECIPE_CUE = re.compile(r"\b(?:recipes?|how (?:do|can|should) (?:i|you|we) (?:make|cook|bake|prepare|grill|roast|fry|boil)|how to (?:make|cook|bake|prepare)|cook(?:ing)? (?:ideas|tips|time)|menus?)\b", re.I)
DIRECTIONS_CUE = re.compile(r"\b(?:directions?|direct me|navigate|route to|how (?:do|can) i get to|how far is|nearest|closest|nearby|near me|around me)\b", re.I)
#: a date or time question without a question word ("day on the fourth of july")
DATE_PHRASE = re.compile(
    r"\b(?:date|dates|day (?:of|on|is|was|will)|time (?:in|zone|difference)|time zone|timezone|weekday|days (?:until|till|left|to)|weeks (?:until|till|left|to))\b",
    re.I,
)
DATETIME_CUE = re.compile(
    r"\b(?:time|times|date|dates|day|days|week|weekday|month|year|o'clock|time zone|timezone|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"christmas|easter|thanksgiving|new year|holiday|leap year)\b",
    re.I,
)

#: topics about the user's own data: declined even when the user asked for a search, because
#: a search engine cannot answer them and the query would leak them
PERSONAL_DOMAINS = frozenset({"alarm", "calendar", "email", "lists", "personal"})


def domain(low: str, *, personal_only: bool = False) -> tuple[str, str] | None:
    """The first out-of-scope topic the lower-cased text is about, with its reply."""
    for name, pattern, say in DOMAINS:
        if personal_only and name not in PERSONAL_DOMAINS:
            continue
        if pattern.search(low):
            return name, say
    return None
