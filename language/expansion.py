"""The field's jargon and plain-language phrasings, mapped to the terms the governing texts use.

Users write "leaked", "the ICO", "delete my record", "SAR"; the law writes "personal data
breach", "supervisory authority", "erasure", "right of access". Expansion adds the legal terms
to the query (never removes the user's words). The same table expands web-search queries.
Maintained by hand: add a row when users' words and the texts' words part ways.
"""

from __future__ import annotations

import re
from functools import lru_cache

from language.words import words

GDPR_NAME = "General Data Protection Regulation"
EHDS_NAME = "European Health Data Space"
# the laws' own names an acronym spells out: they name the law, which picks passages, not what a sentence says
INSTRUMENT_NAMES = frozenset({GDPR_NAME, EHDS_NAME})

# (pattern in the user's words, terms the governing documents use)
EXPANSIONS: list[tuple[str, str]] = [
    # acronyms
    (r"\bgdpr\b", GDPR_NAME),
    (r"\buk gdpr\b", "UK General Data Protection Regulation Data Protection Act 2018"),
    (r"\behds\b", EHDS_NAME),
    (r"\bdpia\b", "data protection impact assessment"),
    (r"\bdpo\b", "data protection officer"),
    # "everything it holds about me": a subject access request in plain words
    (
        r"\bsars?\b|\bsubject access\b|\b(everything|all the (data|information)|whatever) (it|you|they|we|the \w+)"
        r" (holds?|has|keeps?|stores?) (about|on)\b",
        "right of access by the data subject",
    ),
    # how long an organisation has to answer a data subject's request (not a Freedom of Information one):
    # "information on action taken on a request"
    (
        r"\b(respond|reply|answer|deal with|get back)\w*\b.{0,40}(\bsubject access\b|\bsars?\b"
        r"|\beverything (it|you|they|we|the \w+) (holds?|has|keeps?) (about|on)\b|\b(access|erasure"
        r"|rectification|portability) requests?\b|\brequests? (for|to see|to access|to delete|to correct) (my|his|her"
        r"|their|our|a|the) (patient'?s? )?(records?|data|notes|information)\b)"
        # "How long has the hospital got to send me a copy of my records?": the same request, by what it brings
        r"|\bhow (long|quickly|soon|fast)\b.{0,40}\b(send|give|provide|hand over)\b.{0,30}\b(my|his|her|their|the "
        r"patient'?s?) (medical |health )?(records?|notes|data|file)\b"
        # "I asked the trust for a copy of my records. How long are they allowed to take?"
        r"|\b(asked|requested|applied)\b.{0,40}?\bcop(y|ies) of (my|his|her|their|the patient'?s?) (\w+ ){0,2}?"
        r"(records?|notes|data|file)\b.{0,120}\bhow (long|quickly|soon|fast)\b",
        "information on action taken on a request within one month",
    ),
    # more time than the deadline allows: the law's extension of it, for a request by its complexity and number
    (
        r"\b(extra|more|additional|further|longer) time\b|\bextend\w* (the |our |a )?(deadline|time ?limit|period"
        r"|time)\b|\b(can'?t|cannot|won'?t|not) (do|manage|finish|meet|make) it (in|within) (a|one|the) month\b",
        "period extended by two further months where necessary taking into account the complexity and number of"
        " requests",
    ),
    (r"\bdspt\b", "Data Security and Protection Toolkit"),
    # the GDPR's principles, by the name users give them: the principles relating to processing (Art. 5)
    (
        r"\b(data protection|gdpr|processing|privacy|key|core|main|basic|seven) principles\b",
        "principles relating to processing of personal data lawfulness fairness transparency purpose limitation data"
        " minimisation accuracy storage limitation integrity confidentiality",
    ),
    # a use of information that goes on after it starts: the Caldicott "continuing use", to be reviewed
    (
        r"\bonce (it'?s|it is|they'?re|they are|we'?re|we are) (up and )?(running|going|live|in place|set up)\b"
        r"|\b(ongoing|on-going|regular|routine|standing|daily|weekly|monthly|nightly) (sharing|transfers?|uses?"
        r"|(data )?flows?|feeds?|extracts?|uploads?)\b",
        "continuing use reviewed regularly",
    ),
    # staff whose role needs little of the record seeing all of it: access on a need-to-know basis
    (
        r"\b(receptionists?|admin(istrative)? staff|clerks?|secretar(y|ies)|porters?|volunteers?|non-clinical staff)\b"
        r".{0,60}\b(see|open|view|read|look at|access)\b"
        # "everyone on both teams can see every field": more than each one needs
        r"|\b(everyone|everybody|anyone|all (the )?staff)\b.{0,40}\b(can|could|gets? to) (see|open|view|read|access)"
        r" (every|all|everything|any)\b",
        "access to confidential information strict need-to-know basis items they need to see",
    ),
    # a consultation by video or phone: a virtual encounter
    (
        r"\b(video|online|remote|phone|telephone) (consultations?|appointments?|visits?|calls?|clinics?)\b"
        r"|\btele(health|medicine|consultations?)\b",
        "virtual",
    ),
    # an EU country is a Member State in the law's words ("moving from Ireland to a hospital in France")
    (
        r"\b(austria|belgium|bulgaria|croatia|cyprus|czechia|czech republic|denmark|estonia|finland|france|germany"
        r"|greece|hungary|ireland|italy|latvia|lithuania|luxembourg|malta|netherlands|poland|portugal|romania"
        r"|slovakia|slovenia|spain|sweden)\b(?<!northern ireland)",
        "Member State",
    ),
    # an organisation's plan for when an attack or outage hits: its continuity plan
    (
        r"\bplans? (for|to) (cop(e|ing) with|respond(ing)? to|deal(ing)? with|handl(e|ing)|recover(ing)? from|surviv"
        r"(e|ing)) (a |an )?(cyber[- ]?attacks?|ransomware|incidents?|outages?|disasters?|attacks?|hacks?)\b"
        r"|\b(incident response|disaster recovery|business continuity) plans?\b",
        "continuity plan respond to threats to data security",
    ),
    (r"\bndg\b", "National Data Guardian data security standards"),
    (r"\bico\b", "supervisory authority Information Commissioner"),
    (r"\bfhir\b", "HL7 FHIR resource profile"),
    (r"\buk core\b", "FHIR UK Core profiles"),
    (r"\bepr\b|\behr\b", "electronic health record"),
    (r"\bped\b", "pre-existing disease"),
    (r"\bpre-?approv\w*|\bprior approval\b", "pre-authorisation"),  # a cashless claim's approval before treatment
    # a fixed sum per day in hospital, whatever it costs: the wordings' hospital (daily) cash
    (
        r"\bdaily (allowance|cash|benefit)\b|\bcash (allowance|benefit)\b"
        r"|\b(allowance|cash) (per|a|each|for each) day\b"
        r"|\b(pay|paid|get|give|receive)( me| us| him| her| them)? (anything|something|money|a sum|an amount|cash)"
        r" (per|a|each|for each) day\b",
        "Hospital Daily Cash",
    ),
    (r"\bhdabs?\b", "health data access body"),
    # whom a person asks about their data at an organisation: its data protection officer
    (
        r"\b(who|whom) (do|should|can|could|would) (i|we|they|patients?) (contact|speak to|talk to|ask|write to)\b"
        r".{0,60}\b(data|records?|privacy|information)\b",
        "contact details of the data protection officer",
    ),
    (
        r"\b(several|multiple|two|three|four|five|separate|different|many|more than one|each) (\w+ ){0,2}"
        r"(countries|member states|health data access bodies|hdabs|national bodies)\b",
        "more than one Member State single application",
    ),
    # telling everyone whose data were obtained elsewhere would be out of proportion: the exemption from informing
    # (with privacy information: telling every patient of a breach is another duty, Art. 34)
    (
        r"\b(write to|contact|tell|inform|notify|letter to) (every|each|all)( one)?( of)? (them|patients?|people"
        r"|individuals|data subjects) (with|about|of) (\w+ ){0,2}(privacy|information|notices?|how)\b"
        r"|\bnever had (any )?contact with\b",
        "provision of such information proves impossible or would involve a disproportionate effort",
    ),
    # health data used to teach students: the secondary-use purpose of education and teaching
    (
        r"\b(teach\w*|lectur\w*|students?|training (courses?|programmes?)|nursing degree|medical school)\b",
        "education or teaching activities in health or care sectors at vocational or higher education level",
    ),
    # a record someone finds one-sided or incomplete: their own statement added to it
    (
        r"\b(add|adding|added|include|including|attach|attaching|put) (my|our|their|his|her|a|an) (own )?"
        r"(account|statement|version|side|comments?|views?)\b|\bone-sided\b"
        r"|\bincomplete (data|records?|notes|file|information)\b|\b(records?|notes|file) (is|are) incomplete\b",
        "incomplete personal data completed supplementary statement",
    ),
    # a contract on paper or signed electronically: "in writing, including in electronic form"
    (
        r"\bon paper\b|\be-?sign(ed|ature|ing)?\b|\b(electronically|digitally) signed\b|\bin writing\b"
        r"|\bwritten (contract|agreement)\b",
        "in writing including in electronic form",
    ),
    # systems back after an incident: restoring availability and access in a timely manner
    (
        r"\b(incident|attack|ransomware|outage|crash(ed)?|(systems?|servers?) (were|was|went) down)\b.{0,80}"
        r"\b(restor\w*|recover\w*|back online|back up and running|get(ting)? (\w+ ){0,3}back)\b"
        r"|\b(restor\w*|recover\w*|back online|back up and running|get(ting)? (\w+ ){0,3}back)\b.{0,80}"
        r"\b(incident|attack|ransomware|outage|crash)",
        "restore the availability and access to personal data in a timely manner physical or technical incident",
    ),
    # one assessment for several similar roll-outs
    (
        r"\b(separate|several|multiple|individual|six|five|four|three|two) (\w+ )?"
        r"(dpias|impact assessments|assessments)\b"
        r"|\b(one|single|a single|the same) (dpia|impact assessment|assessment)\b",
        "a single assessment may address a set of similar processing operations",
    ),
    # what weighs when a regulator sets a fine
    (
        r"\b(count|weigh|go|work|be held) (in|against) (our|my|their|us|them|your) ?(favou?r)?\b|\bmitigat\w*\b"
        r"|\b(decid\w*|set\w*|calculat\w*|work\w* out) (\w+ ){0,3}fines?\b|\bhow (big|large|high) (a |the )?fine\b",
        "deciding whether to impose an administrative fine and on its amount due regard",
    ),
    # results held back until a clinician has explained them
    (
        r"\b(held|hold|holding|kept|keep) back\b|\bdelay(ed|ing)? (my |the |their )?(access|results?)\b"
        r"|\b(until|before) (my |the |a |any )?(doctor|consultant|gp|clinician|health professional) (has )?(explained"
        r"|talked|spoken|discussed|gone through)",
        "delaying their access until a health professional is able to communicate and explain",
    ),
    (
        r"\b(bariatric|gastric (band|bypass|sleeve)|weight[- ]loss (surgery|operation|treatment)|stomach stapling)\b",
        "surgical treatment of obesity weight control",
    ),
    # patients' data received from another organisation, not from the patients themselves
    (
        r"\b(from|by) (another|a different|an?other|the previous|their (old|previous)|a referring) "
        r"(trust|hospital|provider|organisation|agency|practice|gp|clinic|controller|company)\b"
        r"|\b(took|taken|take|taking) over (\w+ ){0,3}(records|files|data|patients)\b|\bnot from the patients?\b"
        r"|\b(from|via|through) (a )?third part(y|ies)\b|\bfrom (someone|somebody|somewhere) else\b"
        r"|\b(never|didn'?t|did not) (gave|give|provided?|supplied?|handed|hand) (it|them|this|that|those|these|their"
        r" \w+) (to us|to me|themselves)\b",
        "personal data have not been obtained from the data subject",
    ),
    # the regulator's sign-off before processing starts
    (
        r"\b(sign[- ]?off|approval|permission|authori[sz]ation|green light|go-ahead)\b.{0,40}"
        r"\b(regulator|supervisory authority|ico|data protection authority)\b"
        r"|\b(regulator|supervisory authority|ico)('s)? (sign[- ]?off|approval|permission|go-ahead|green light)\b",
        "obtain prior authorisation from the supervisory authority",
    ),
    # archiving as a purpose (a records office, a national archive), not a system that stores images or files
    (
        r"\b(archiving|historical records?|(national|public|county|local|state|historical) archives?"
        r"|archives? (service|office)|(for|into|in) (the |an |a )?(public |national )?archives?|(to|we|i) archive"
        r"|archive (old|the|our|these|those|all|patient))\b",
        "archiving purposes in the public interest",
    ),
    # data used although the person opted out: the exception to the opt-out
    (
        r"\b(opted out|opt(ed)?[- ]out)\b.{0,80}\b(still|anyway|regardless|nevertheless|even so)\b"
        r"|\b(still|anyway|despite|even though|even if)\b.{0,80}\b(opted out|opt(ed)?[- ]out)\b",
        "exception to the right to opt out",
    ),
    (r"\bsccs?\b", "standard data protection clauses"),
    (r"\bbcrs?\b", "binding corporate rules"),
    # plain words -> legal terms
    (
        r"\b(leak(ed|s)?|hack(ed)?|ransomware|cyber ?attack|stolen|data breach|went missing|gone missing|go missing"
        r"|(lost|lose|losing|misplaced|left) (a |an |the |our |my |their |his |her |some )?"
        r"(laptops?|usb( sticks?)?|memory sticks?|phones?|devices?|tablets?"
        r"|(patient |scan |test |blood )?(records?|files?|notes?|results?|scans?|letters?|x-rays?|documents?))"
        r"|(sent|emailed|e-mailed|posted|faxed|given|disclosed|shared|went|gone|delivered)\b.{0,60}"
        r"\bto (the wrong \w+|someone else|somebody else|another (patient|person|family)|a stranger)"
        r"|\bto (my|an|the|their|his|her) (old|previous) address"
        r"|\bsomeone else (opened|read|saw|received|got))\b",
        "personal data breach",
    ),
    # staff who opened a record without a work reason (curiosity, a relative, an ex): unauthorised access, a breach
    # (what happened, not what someone asks to do: "Can I look up ...?" is asked of the rules on access)
    (
        r"\b(looked (up|at|into|through)|opened|accessed|browsed|read|checked up on)\b.{0,60}\b(records?|notes|files?"
        r"|charts?|results?)\b.{0,60}\b(out of curiosity|curious|nos(e|y|ey)|no (work|clinical|business) reason"
        r"|without (a |any )?(reason|need|permission|authori[sz]ation))"
        r"|\b(snooped|(has|had|have|was|were|been) snooping)\b",
        "personal data breach unauthorised",
    ),
    # an organisation asking whether it must tell the regulator: breach notification to the supervisory authority
    (
        r"\b(do|must|should|would|will|have|need|ought) (we|i|the (trust|hospital|practice|clinic|surgery|company))\b"
        r".{0,40}\b(report|tell|notify|inform|let)\b.{0,40}\b(ico|regulator|supervisory authority"
        r"|data protection authority|information commissioner)\b",
        "notify the personal data breach to the supervisory authority",
    ),
    (r"\b(regulator|watchdog|data protection authority)\b", "supervisory authority"),
    (r"(?<!privacy )(?<!fair processing )\bnotice\b(?! board)", "notify notification"),  # "how much notice": notify
    # an insurer or an employer using EHDS data to price a policy or to hire: prohibited secondary use
    (
        # (not a patient's own reimbursement claim: sending a record to a health insurance fund is primary use)
        r"(?=.*\b(ehds|european health data space)\b)(?!.*\b(reimburs\w*|refund\w*)\b)"
        r".*\b(insurers?|insurance|employers?|premiums?|price|pricing"
        r"|job offers?|hiring)\b",
        "prohibited secondary use insurance premiums job offers decisions detrimental",
    ),
    # a health insurance fund paying a patient back: the social security or reimbursement services a record may be
    # sent to
    (
        r"\b(health insurance fund|sickness fund|insurance fund|benefits? (office|agency)|(disability|sickness|welfare)"
        r" (allowance|benefits?|payments?))\b",
        "social security reimbursement services",
    ),
    # ("an appointment" is a patient's visit, not a designation)
    (r"\bappoint(s|ed|ing)?\b|\bset(s|ting)? up (a|an|one|its|their)\b", "designate"),
    # EU law calls the countries Member States; their own rules are further conditions of Member State law
    (
        r"\b(eu|each|every|individual|european|member) (countries|country|nations?)\b"
        r"|\b(countries|country|governments?)\b.{0,40}\b(own|extra|additional|stricter|national) (rules|laws"
        r"|conditions|requirements|restrictions)\b",
        "Member States further conditions Member State law",
    ),
    (
        r"\b(prove|proof|evidence|show) (\w+ ){0,3}(consent\w*|agreed|opted in)\b",
        "demonstrate that the data subject has consented",
    ),
    # consent bundled with a service ("won't let me use the app unless I agree"): the law asks whether it is
    # freely given when a contract is made conditional on it
    (
        r"\b(won'?t|will not|doesn'?t|does not|can'?t|cannot) (let|allow) (me|us|them|you|patients?)\b[^.?]{0,40}"
        r"\bunless\b|\bunless (i|we|you|they) (agree|consent|accept|tick|sign)\b"
        r"|\b(forced|made|have) to (agree|consent)\b|\b(real|valid|genuine|proper) consent\b",
        "consent freely conditional on consent performance of a contract",  # no verb: it is no act asked about
    ),
    (r"\bapply for\b", "submit an application"),
    # staff opening a record with no reason to: unauthorised access, an offence of unlawfully obtaining data
    (
        r"\b(snoop\w*|nosey|nosy|out of curiosity|out of interest)\b|\b(look(ed|ing)? (at|up|into)|open(ed|ing)?"
        r"|access(ed|ing)?|check(ed|ing)?|read) (\w+ ){0,2}(neighbour|friend|ex|colleague|celebrity|relative)'?s?"
        r" (record|records|notes|file)\b",
        "unauthorised access unlawfully obtaining personal data",
    ),
    # a consultation by video or phone: a virtual encounter
    (
        r"\b(video|online|remote|phone|telephone) (consultations?|calls?|appointments?|visits?)\b",
        "virtual encounter",
    ),
    # a faster way through a procedure: the law's accelerated procedure
    (
        r"\b(quicker|faster|fast[- ]track\w*|expedit\w*|speed(ed)? up|shortcut)\b",
        "accelerated procedure",
    ),
    # a copy with parts about other people removed: the copy must not adversely affect others' rights
    (
        r"\b(black(ed)?[- ]out|redact\w*|censored)\b|\b(about|on|of|mention\w*) (someone else|other people"
        r"|another person|a third party|third parties)\b"
        # "things my ex-husband told the doctor about me": what another person said, in the asker's record
        r"|\b(things|what|information|comments|parts?) (my|her|his|their|someone'?s?) ([\w-]+ ){0,2}(told|said|wrote"
        r"|gave|provided)\b",
        "adversely rights and freedoms of others",  # no verb: it is no act asked about
    ),
    # systems set up so that everyone sees everything unless someone changes it: protection by default
    (
        r"\bby default\b|\bdefault (settings?|set-?up|configuration)\b|\bunless (someone|somebody|we|they|you)"
        r" (changes?|alters?|switch(es)?|turns?) (the |its )?(settings?|it|that)\b",
        "data protection by design and by default",
    ),
    # a processor using the data for its own ends decides the purposes itself: it is treated as a controller
    (
        r"\bfor (its|their) own (purposes?|products?|marketing|use|business|ends)\b|\b(its|their) own marketing\b"
        r"|\b(build|develop|train|make|sell|create) (\w+ ){0,2}(its|their) own\b",
        "determining the purposes and means of processing treated as a controller",
    ),
    # objecting to research use of one's data: the right to object on grounds of one's particular situation
    (
        r"\bobject\w*\b(?=.*\bresearch\b)|\bresearch\b.{0,80}\bobject\w*",
        "right to object scientific research purposes particular situation",
    ),
    # whom one's data were passed to, and what they are used for: what the right of access tells the data subject
    (
        r"\bwho (they|you|it|the \w+|my \w+)('ve| have| has)? (shared|passed|sent|given|disclosed) (it|them|my \w+)"
        r"( \w+)? (with|to)\b"
        r"|\bhow (they|you|it|the \w+) (use|uses|are using|is using) my (data|information|records?)\b",
        "purposes of the processing recipients or categories of recipient to whom the personal data have been"
        " disclosed",
    ),
    # data that came from someone else: information where personal data have not been obtained from the data subject
    (
        r"\b(rather than|not|instead of) (directly )?from (the |our )?(patients?|data subjects?|them|the person|people)"
        r"( themselves| directly)?\b|\bfrom (a |the )?(third part(y|ies)|referr(al|ing) letters?|another (organisation"
        r"|hospital|trust|provider|gp))\b|\b(gp|hospital) referral letters?\b"
        # "A neighbouring trust has passed us referral details": data another body handed over
        r"|\b(trust|hospital|practice|organisation|provider|registry|body) (has |have |had )?(passed|sent|given|handed"
        r"|forwarded|shared|disclosed) (us|on to us|to us|over)\b",
        "information to be provided where personal data have not been obtained from the data subject",
    ),
    # the EHDS asked about in a UK setting: an EU regulation, which does not apply in the UK
    (
        r"\b(nhs|uk|united kingdom|england|english|scotland|scottish|wales|welsh|northern ireland|british)\b"
        r"(?=.{0,160}\b(ehds|european health data space)\b)"
        r"|\b(ehds|european health data space)\b(?=.{0,160}\b(nhs|uk|united kingdom|england|scotland|wales"
        r"|northern ireland|british)\b)",
        "EHDS is EU law and does not apply in the UK",
    ),
    # what a breach report must say: the notification's contents
    (
        r"\b(report|notification|notice)\b.{0,40}\b(include|contain|say|cover|describe|put in)\b"
        r"(?=.{0,80}\b(breach|regulator|ico|supervisory|authority)\b)"
        r"|\b(breach|regulator|ico)\b.{0,60}\b(report|notification)\b.{0,30}\b(include|contain|say|cover)\b",
        "the notification shall at least describe the nature of the personal data breach approximate number of data"
        " subjects likely consequences measures taken",
    ),
    # a breach notification sent before everything is known: the information may follow in phases
    (
        r"\b(fill in|send|provide|give|add) (in )?(the )?(rest|remainder|details|more( information)?) later\b"
        r"|\bin (stages|phases|instalments|parts)\b"
        r"|\bbefore (we|i|they|you) (have|know|get|find out|establish) (all|the full|every)( the)? (facts|details"
        r"|information|picture)\b|\b(don'?t|do not|still don'?t) (yet )?(know|have) (all|the full|every)\b",
        "information provided in phases without undue further delay",
    ),
    # someone who does not use computers authorising another to see their records: proxy services, on paper
    (
        r"(?=.*\b(records?|ehds|health data)\b).*\b(on paper|paper form|(doesn'?t|does not|can'?t|cannot) use "
        r"(a )?computers?|not online)\b",
        "proxy services authorisations free of charge on paper",
    ),
    # the law dates a duty from when the party "becomes aware" of the event
    (
        r"\b(discover(s|ed|y)?|found out|find out|noticed|spotted|realised|learn(t|ed) (of|about))\b",
        "becoming aware",
    ),
    (r"\b(valid|validity|expire[sd]?|expiry)\b", "duration"),
    # "the permit runs out in six weeks. Can we get more time?": it expires, and its duration may be extended
    (r"\b(runs?|running|ran) out\b|\bwhen (it|the \w+) (ends|lapses|is over)\b", "expires expiry duration"),
    (r"\b(more|extra|additional) time\b|\b(extend|extension|prolong)\w*\b", "extended extension"),
    (r"\b(delete|deleted|deletion|erase|remove|forget|forgotten|wiped?)\b", "erasure right to be forgotten"),
    # "a wrong allergy", "my address is wrong": the data are inaccurate; "sent to the wrong person" or
    # "sent to someone else by mistake" is a breach
    (
        r"\b(correct(ed|ing|ion)?|fix(ed|ing)?|inaccurate|(?<!by )mistakes?|out of date|outdated|not up to date)\b"
        # "my record says I'm allergic to penicillin but I'm not"
        r"|\bsays? (that )?(i|he|she|they)('m|'s|'re| am| is| are| have| has)\b.{0,60}\bbut (i|he|she|they)"
        r"('m|'s|'re| am| is| are| do| does| have| has)(n't| not)\b"
        r"|\b(address|name|details) "
        r"(has |have )?changed\b|\bupdate (my|their|his|her) (details|address|records?)\b"
        r"|\b(old|previous|former|new) (address|name|surname|phone number|details)\b"
        r"|\b(moved|move|moving) (house|home)\b"
        r"|\bwrong\b(?! (person|people|patient|address|recipient))",
        "rectification inaccurate personal data",
    ),
    (
        # the asker or the patients themselves see them ("let my daughter look at my records" is proxy access)
        r"\b(cop(y|ies) of (my|their|his|her) (\w+ ){0,2}?(data|records?)|(i|we|you|patients?|people|they) "
        r"(\w+ ){0,2}?(see|view|read"
        r"|look at|access) (my|their|his|her|our|your) (own )?(medical |health |hospital |gp )?(records?|notes"
        r"|file)"
        # "Do I have to pay to get my GP records?": asking for them is the same right
        r"|(get|obtain|request|ask for|receive) (hold of )?(my|their|his|her) (own )?(medical |health |hospital "
        r"|gp )?(records?|notes|file))\b",
        "right of access",
    ),
    (
        r"\b(mov(e|es|ed|ing)|transfer(s|red|ring)?|tak(e|es|ing)|port|sen(d|ds|ding|t)) (my|their|his|her|our) "
        r"(\w+ ){0,2}(data|records?|notes) to\b"
        r"|\b(data|records?|notes) (sent|transferred|moved|passed|transmitted) (straight |directly )?(over )?to\b"
        r"|\bswitch(ing)? (to )?(a )?(different|another|new) (app|provider|service|hospital)\b"
        r"|\b(mov(e|es|ed|ing)|switch(es|ed|ing)?|chang(e|es|ed|ing)) to (a |an )?(different|another|new) (\w+ )?"
        r"(clinic|hospital|practice|surgery|provider|dentist|app)\b",
        "data portability transmit to another controller or healthcare provider",
    ),
    (  # "sent straight to her new clinic" rather than downloaded by her
        r"\b(sent|send|sending|transferred|transfer|transmitted|moved|passed) (\w+ ){0,5}?(straight|directly) "
        r"((over |across )?to|over|across)\b",
        "transmitted directly from one controller to another technically feasible",
    ),
    (
        r"\b(everything|(what|which|any) (personal )?(data|information|records?|details)) (\w+ ){0,4}?"
        r"(holds?|keeps?|has|have|stores?|holding|keeping) (about|on) (me|them|him|her)\b",
        "right of access copy of the personal data",
    ),
    (
        r"\b(object(s|ed|ing)?|objections?|stop (using|processing|sending|contacting|emailing|calling|texting))\b",
        "right to object",
    ),
    (
        r"\bmarketing\b|\b(adverts?|advertising|promotional|sales) (letters?|emails?|calls?|texts?|messages?)\b"
        r"|\b(email\w*|e-mail\w*|text\w*|send\w*|post\w*) (me|us|them|him|her) (\w+ ){0,2}"
        r"(offers|promotions|deals|newsletters?|adverts?)\b",
        "direct marketing",
    ),
    (
        r"\bstop (my|their|his|her|our|the) (\w+ ){0,2}(data|records?|information) (from )?(being )?(re-?)?"
        r"(used|shared)\b"
        r"|\b(don't|do not|doesn't|does not|didn't|did not) want (my|their|his|her|our|the) (\w+ ){0,2}(data|records?"
        r"|information) (to be )?(being )?(re-?)?(used|shared)\b",
        "opt out right to object",
    ),
    # money back on cancelling (not "money back if I stay healthy": a no-claim benefit, which a wording may not have)
    (r"\bcancel\w*\b.{0,60}\bmoney back\b|\bmoney back\b.{0,60}\bcancel\w*", "refund of premium"),
    (
        r"\b(chang\w* (their|his|her|my|our) minds?|take (it|that|consent|agreement) back|withdraw|pull out"
        r"|back out|opt back out)\b",
        "withdraw consent",
    ),
    # "I said yes to ...", "we ticked the box": consent given
    (r"\b(said yes|agreed|ticked (the|a) box|signed up)\b(?= to\b)", "consent given"),
    (r"\b(legal|lawful) (reasons?|bases|basis|grounds?)\b|\bjustification\b", "lawful basis lawfulness of processing"),
    # "They turned down our application. Do they have to tell us why?": the reasons for a refusal
    (
        r"\b(tell|told|explain\w*|say|said) (to )?(us|me|them|him|her|the \w+) why\b"
        r"|\bgive (us |me |them )?(any |a |their )?reasons?\b|\bwithout (giving |any )?(a )?reasons?\b",
        "reasons justification",
    ),
    (r"\b(turned|turning|turns) (it |them |us |me )?down\b|\brejected\b|\bdeclined\b", "refuse refusal"),
    (r"\b(fine|fines|penalty|penalties|sanction)\b", "administrative fines"),
    # several infringements in one processing: the fines are not added up, the gravest sets the cap (83(3))
    (
        r"\b(fines?|penalt(y|ies))\b.{0,60}\b(added (up|together)|add up|cumulat\w*|stack\w*|on top of each other"
        r"|for each (breach|infringement|rule|one))\b"
        r"|\b(several|multiple|many|two|three) (gdpr )?(rules|provisions|breaches|infringements|articles)\b"
        r"(?=.{0,80}\bfines?\b)",
        "same or linked processing operations infringes several provisions total amount of the administrative fine"
        " gravest infringement",
    ),
    # a fine for a controller's or processor's own duties (Articles 25 to 39: by design, processors, records, security,
    # breach notification, DPIAs, DPOs) is the lower tier of 83(4), not 83(5)'s tier for principles and rights
    (
        r"\b(fine|fines|penalt(y|ies)|sanction\w*)\b(?=.{0,120}\b(dpias?|impact assessments?|dpos?|data protection"
        r" officers?|records? of processing|processor contracts?|by design|by default|security measures"
        r"|notif\w* (the )?(breach|regulator|ico))\b)"
        r"|\b(dpias?|impact assessments?|dpos?|data protection officers?|records? of processing|processor contracts?"
        r"|by design|by default|security measures)\b(?=.{0,120}\b(fine|fines|penalt(y|ies)|sanction\w*)\b)",
        "infringements of the obligations of the controller and the processor pursuant to Articles 8, 11, 25 to 39",
    ),
    (
        r"\b(cloud (provider|company|service|firm)s?|supplier|vendor|contractor|outsourc\w*"
        r"|hosting (company|provider))\b"
        r"|\b(company|firm|business|organisation|someone) (that|who|which) ((handles|processes|stores|hosts|manages"
        r"|transcribes|types|prints|scans|digitises|codes|analyses|shreds|posts)\b"
        r"|(sends|runs|provides) (our|the|its|their)\b)"
        r"|\b(company|firm|business|start-?up|supplier|contractor|vendor) to (handle|process|store|host|manage"
        r"|transcribe|type|print|scan|digitise|code|analyse|shred|destroy)\b"
        # "a booking system run by a software company", "an IT supplier"
        r"|\b(system|service|software|app|platform|portal)s? (run|hosted|provided|supplied|operated|built) by"
        r" (a|an|the) (\w+ ){0,2}(company|firm|supplier|provider|vendor|contractor)\b"
        r"|\b(software|it|tech|technology|app|saas) (company|firm|supplier|provider|vendor|contractor)s?\b",
        "processor",
    ),
    # choosing a processor: what the controller must be satisfied of first (Art. 28(1))
    (
        r"\b(choos\w*|select\w*|pick\w*|hir(e|es|ed|ing)|appoint\w*|engag\w*|vet\w*|take on) (a|an|the|our|which|this"
        r"|that|new) (\w+ ){0,2}(company|firm|start-?up|supplier|contractor|vendor|processor|provider)s?\b"
        r"(?=.{0,200}\b(gdpr|data|records|notes|patients?|personal)\b)",
        "processor providing sufficient guarantees appropriate technical and organisational measures",
    ),
    # a DPO without the expertise: the qualities the designation rests on (Art. 37(5))
    (
        r"\b(no|without|little|lacks?|lacking|limited|not much|hasn'?t (got )?(any|a|much)) (\w+ ){0,2}(background"
        r"|experience|expertise|knowledge|qualifications?|training)\b(?=.{0,160}\b(dpo|data protection officer)\b)"
        r"|\b(dpo|data protection officer)\b.{0,160}\b(no|without|little|lacks?|lacking|limited|not much) (\w+ ){0,2}"
        r"(background|experience|expertise|knowledge|qualifications?|training)\b",
        "designated on the basis of professional qualities expert knowledge of data protection law and practices",
    ),
    # the contract with a processor: what it must set out (Art. 28(3))
    (
        r"\b(data )?processing (contract|agreement)s?\b|\b(contract|agreement)s? with (a|our|the|their) (data )?"
        r"processors?\b|\bprocessor (contract|agreement)s?\b|\bdpa\b(?= (contract|agreement|template|clauses?))"
        # "a system run by a software company. What has to be in our contract with them?"
        r"|(?=.*\b(software|it|tech|technology|cloud|hosting|app|saas) (company|firm|supplier|provider|vendor)\b)"
        r".*\b(contract|agreement)s? with (them|it|the (company|firm|supplier|provider|vendor))\b",
        "processing by a processor governed by a contract or other legal act",
    ),
    (
        r"\bsub-?contract\w*|\bsub-?processors?\b"
        r"|\b(hire|hires|hiring|use|uses|using|bring in|brings in|engage|take on|appoint) (another|a second|a new"
        r"|other|a third[- ]party|third[- ]party) (firm|company|provider|supplier|contractor|vendor)s?\b"
        r"|\b(hand|hands|handing|pass|passes|passing|give|gives|giving|farm|farms|farming)( \w+){0,4}? (work|job|jobs"
        r"|processing|tasks?)( \w+)? (to|out to|over to) (another|a second|a new|other|a third[- ]party|third[- ]party)"
        r" (firm|company|provider|supplier|contractor|vendor)s?\b",
        "engage another processor prior written authorisation",
    ),
    # whose fault a sub-processor's failure is: the processor that engaged it stays liable (Art. 28(4))
    (
        r"(?=.*\bsub-?(contract\w*|processor)s?\b).*\b(problem|fault|responsib\w*|liab\w*|blame\w*|to blame)\b",
        "initial processor remain fully liable to the controller for that other processor's obligations",
    ),
    (
        # a place is where data go only when the question sends them there ("the rules in the United States"
        # asks about another regime, which the grader refuses)
        r"\b(abroad|overseas|outside the (eu|uk|eea))\b"
        r"|\b(send|sent|sending|transfer\w*|shar(e|es|ed|ing)|mov(e|es|ed|ing)|stor(e|es|ed|ing)|host\w*)\b.{0,60}"
        r"\b(the us|united states|usa|america|india|china|japan|canada|australia|singapore)\b"
        r"|\b(us|us-based|american) (cloud|company|provider|server|vendor|firm|hospital|lab)",
        "transfer third country adequacy appropriate safeguards",
    ),
    (r"\b(research|study|studies|clinical trial)\b", "scientific research purposes safeguards"),
    (r"\b(unconscious|emergency|life[- ]threatening|a&e)\b", "vital interests incapable of giving consent"),
    # the other conditions of GDPR Art. 9(2) as people describe their situation
    (
        r"\b(posted|published|shared|put|announced|talked about|wrote about)\b.{0,60}"
        r"\b(publicly|in public|on (social media|facebook|twitter|instagram|tiktok|the internet"
        r"|(a|his|her|their) blog))\b"
        r"|\b(made|make|making) (it |them |this )?public\b",
        "manifestly made public by the data subject",
    ),
    (
        r"\b(court|lawsuit|legal (claim|action|case|proceedings)|litigation|sue[sd]?|suing|tribunal|"
        r"(negligence|compensation|insurance) claims?|defen[cd](e|ing) (a|the|our|ourselves)\b)",
        "establishment exercise or defence of legal claims",
    ),
    (
        r"\b(charit(y|ies)|support group|patients'? association|members'? (association|club|society)|church|"
        r"trade union|(political|religious|philosophical) (group|body|organisation|party))\b",
        "not-for-profit body members legitimate activities",
    ),
    # an epidemic: public health, serious cross-border threats to health (GDPR Art. 9(2)(i), EHDS Art. 53(1)(a))
    (
        r"\b(infectious diseases?|(disease|infection) outbreaks?|epidemics?|pandemics?|contagious|contact tracing"
        r"|covid\w*)\b",
        "serious cross-border threats to health",
    ),
    # whether an employee is fit to work: occupational medicine, the assessment of working capacity (Art. 9(2)(h))
    (
        r"\b(fit|fitness|unfit) (to|for) (go back to |return to |resume )?(work|duty|duties|driving|drive|his job"
        r"|her job|their job)\b|\breturn(ing)? to work\b|\boccupational (health|medicine|physician|doctor|nurse)\b",
        "preventive or occupational medicine assessment of the working capacity of the employee",
    ),
    (
        r"\b(employment law|sick(ness)? (records?|notes?|leave|absence)|occupational|staff sickness|"
        r"(hr|human resources)|social security|benefits? (claims?|agency))\b",
        "obligations in the field of employment social security and social protection law",
    ),
    (
        r"\b(child|children|kid|teenager|under 16|minor|(1[0-7]|[1-9])[- ]years?[- ]olds?)\b"
        r"|\b(son|daughter) (is|aged) (1[0-7]|[1-9])\b",
        "child parental responsibility",
    ),
    # family members on a policy: who may be covered, and from and to what age
    (
        r"\b(sons?|daughters?|child|children|kids?|bab(y|ies)|newborns?|infants?|wife|husband|spouse|partner|parents?"
        r"|mum|mom|dad|mother|father|family)\b.{0,40}\b(on|to|under|onto) (my|our|the|his|her) (\w+ ){0,2}(rider"
        r"|policy|plan|cover|insurance)\b"
        r"|\b(add|cover|include|stay on|remain on|keep)\b.{0,30}\b(sons?|daughters?|child|children|kids?|bab(y|ies)"
        r"|newborns?|infants?|wife|husband|spouse|parents?|mum|mom|dad|mother|father)\b",
        "family members dependent children dependent parents eligibility entry age",
    ),
    (r"\b(apps?|online services?|websites?)\b", "information society services"),
    (  # consumer health tracking: the EHDS's "wellness applications"
        r"\b(fitness|step[- ]?count\w*|sleep[- ]?track\w*|activity[- ]?track\w*|wearables?|smart ?watch\w*"
        r"|fitness trackers?|health (and fitness )?apps?)\b",
        "wellness applications",
    ),
    (
        r"\bform(at)? (that |which )?(they|we|i|it|the \w+( \w+)?) can (use|read|open|load|import)\b"
        r"|\bmachine[- ]readable\b",
        "structured, commonly used and machine-readable format data portability",
    ),
    (
        r"\b(hide|restrict|limit|block) (access|who can see)\b|\bhid(e|den|ing)\b"
        r"|\b(stop|block|prevent|keep) (some |certain |other |particular )?(doctors|people|staff|professionals"
        r"|clinicians|nurses)( \w+)? (from )?(seeing|accessing|looking at)\b",
        "restrict access",
    ),
    (r"\bopt[- ]?out\b", "opt out"),
    (
        # (what a privacy notice tells people is the information to be provided, the next row)
        r"\b(?<!notice )(?<!information )(tell|inform|notify|let \w+ know|contact|write to)\b"
        r"(?!.*\bprivacy (notice|information|policy|statement)).*\b(patients?|people|individuals?|data subjects?)\b"
        r"|\b(they|he|she|hospital|practice|surgery|clinic|trust|insurer|company|controller)"
        # ("what were they supposed to tell me?" asks what a privacy notice says: the next row)
        r" (?!(\w+ )?(supposed|meant|required|obliged) to )(\w+ ){0,2}(tell|inform|notify|warn) (me|us)\b",
        "communication to the data subject",
    ),
    (
        r"\b(privacy notice|privacy information|what (do|must|should) (we|they|you) (have to )?tell)\b"
        r"|\b(supposed|meant|required|obliged|have|had) to tell (me|us|them|patients?)\b"
        r"|\bwhen (we|they|you|the \w+) (first )?(collect|collected|took|take|takes|got|get|ask(ed)? for)\b"
        r"|\bat registration\b",
        "information to be provided where personal data are collected from the data subject",
    ),
    # the DPO brought into a decision: the controller seeks the DPO's advice
    (
        r"\b(dpo|data protection officer)s?\b.{0,40}\b(involved|involve|consulted|consult|sign (it )?off|say|input"
        r"|advice|advise|in the loop|brought in)\b"
        r"|\b(involve|consult|ask|tell)\w* (our|the|a) (dpo|data protection officer)\b",
        "seek the advice of the data protection officer",
    ),
    # processing that reaches everyone a body serves: on a large scale
    (
        r"\b(every|all|all of) (our |the |its |their )?(patients?|service users|population|residents|members"
        r"|customers)\b|\bwhole (trust|hospital|population|region|country)('s)?\b|\b(thousands|millions) of\b",
        "on a large scale",
    ),
    (  # "special permission" is no category of data
        r"\bspecial (categor\w+|kinds?|types?|personal data|data|health data|information)\b"
        r"|\b(is|are) (\w+ ){0,3}special\b"
        r"|\bsensitive (personal )?(data|information)\b",
        "special categories of personal data",
    ),
    (
        r"\bhow long (can|may|should|must|do|does|are|is|will) (we|i|they|you|(a |the |my |our |your )?(hospitals?|gps?"
        r"|trusts?|practices?|clinics?|surger(y|ies)|doctors?|nhs|dentists?|providers?)) (\w+ ){0,2}"
        r"(keep|retain|store|hold|allowed to keep)\b|\bretention\b|\bkept for how long\b"
        r"|\bhow long (are|is|will|do|does) (my|our|the|their|his|her|patients'?|patient) (\w+ ){0,2}"
        r"(records?|data|notes|files?|information)( be)? (kept|retained|stored|held)\b",
        "storage limitation kept no longer than is necessary",
    ),
    (
        r"\b(log|list|register|inventory|record) of (all )?(the |our )?(processing|data processing|what we do with)\b",
        "records of processing activities",
    ),
    (
        r"\b(privacy|data protection) by (design|default)\b|\bbuild (privacy|data protection) in(to)?\b"
        r"|\bdesign(ing)? (a |the )?new system\b",
        "data protection by design and by default",
    ),
    (r"\brisk assessment\b|\bassess(ing)? (the )?risks?\b", "data protection impact assessment high risk"),
    (r"\b(records? of processing|ropa)\b", "records of processing activities"),
    (
        r"\b(hang|hold) on to\b|\bkeep (\w+ ){0,2}(forever|indefinitely)\b|\bforever\b",
        "storage limitation kept no longer than is necessary",
    ),
    (
        r"\b(just )?in case (they|we|it|you|i)\b|\bjust in case\b|\bmore (data |information )?than (we|they|you) "
        r"need\b|\bonly needs?\b",
        "data minimisation adequate relevant limited to what is necessary",
    ),
    # how much of a record to share or send: the minimum necessary (Caldicott 3, data minimisation)
    (
        r"\bhow much (of (the|a|my|his|her|their) )?(patient'?s? )?(information|data|history|details|notes|records?)\b",
        "minimum necessary confidential information data minimisation limited to what is necessary",
    ),
    (
        r"\b(new|another|different|other|second) purposes?\b|\bfor something else\b",
        "further processing compatible with the purposes for which the personal data were initially collected",
    ),
    (
        r"\b(pre-?ticked|already ticked|tick(ed)? box(es)?|cookie banners?|silence|inactivity)\b",
        "consent clear affirmative act",
    ),
    # consent asked for inside other terms: the request must be clearly distinguishable from the other matters
    (
        r"\b(bury|buried|burying|hide|hidden|hiding|tuck\w*|bundl\w*)\b.{0,80}"
        r"\b(terms|t ?& ?cs?|small print|contract)\b|\bsmall print\b",
        "request for consent clearly distinguishable from the other matters",
    ),
    # a right mentioned only in the small print: it must be brought to attention clearly and separately
    (
        r"\b(small print|fine print|buried|hidden|tucked away|near the end|at the bottom)\b.{0,120}\bright\b"
        r"|\bright\b.{0,120}\b(small print|fine print|buried|hidden|tucked away|near the end|at the bottom)\b",
        "explicitly brought to the attention presented clearly and separately from any other information",
    ),
    # breaking the law: an infringement, for which administrative fines are imposed
    (
        r"\b(break\w*|broke|breach\w*|violat\w*|flout\w*|ignor\w*|not comply\w*|fail\w* to comply)"
        r"( with)? (the )?(gdpr|regulation|data protection (law|rules)|rules|law)\b",
        "infringements administrative fines",
    ),
    # every hospital, clinic or practice: all healthcare providers
    (
        r"\b(every|all|each|any) (\w+ )?(hospitals?|clinics?|gp practices?|surger(y|ies)|care providers?)\b",
        "all healthcare providers",
    ),
    # linked to a service or network: connected to it
    (r"\b(hook(ed)? up|plugged in(to)?|link(ed)? up|join(ed)? up)\b", "connected to"),
    # a country adding protections of its own: stricter measures and additional safeguards at national level
    (
        r"\b(extra|more|additional|tighter|stronger|stricter) (\w+ )?(protections?|safeguards?|rules|restrictions"
        r"|measures)\b",
        "stricter measures and additional safeguards at national level",
    ),
    # paid out before and asked for again: a benefit payable once in a lifetime, cover ending on payment
    (
        r"\b(claim|get|receive|be paid|pay out|paid out) (it |the (\w+ ){0,2}(lump sum|benefit|payout) )?"
        r"(again|a second time|twice)\b|\b(second|another) (lump sum|payout|critical illness claim)\b",
        "benefit is payable once in the lifetime cover under this Clause ends",
    ),
    # asking the people concerned what they think: seeking the views of data subjects
    (
        r"\bask (the )?(patients|people|users|service users|them|the public)( themselves)? (what they think|for "
        r"their (views|opinions?))\b|\bconsult (the )?(patients|people|users|public)\b",
        "seek the views of data subjects or their representatives",
    ),
    (r"\b(jointly|together) (decide|run|determine)\w*\b|\bdecide together\b", "joint controllers"),
    (
        r"\b(offices|establishments?|branches) in (several|many|different|two|three|four|five|\d+) (eu |european )?"
        r"(countries|member states)\b|\bmain establishment\b",
        "lead supervisory authority main establishment",
    ),
    # a copy or an answer wanted by email or on paper: the form the law sets for it
    (
        r"\b(by e-?mail|e-?mailed|electronically|electronic (copy|form|format|version)|digital (copy|version|format)"
        r"|as a pdf|on a (usb|memory stick|disc|cd)|(paper|printed) (copy|printout|version)|printout|(by|in the) post"
        r"|posted)\b(?=.{0,200}\b(records?|notes|cop(y|ies)|data|file|request|sar)\b)"
        r"|\b(records?|notes|cop(y|ies)|data|file|request|sar)\b.{0,200}\b(by e-?mail|electronically|electronic (copy"
        r"|form|format)|digital (copy|format)|as a pdf|(paper|printed) (copy|printout)|printout)\b",
        "provided by electronic means commonly used electronic form",
    ),
    # the lawful bases by their usual short names: a public task is 6(1)(e), legitimate interests 6(1)(f)
    (r"\bpublic (task|function|duty|duties)\b", "task carried out in the public interest point (e) of Article 6(1)"),
    # a fine or a decision of the regulator taken to court: the judicial remedy against it, with safeguards
    (
        r"\b(challeng\w*|appeal\w*|contest\w*|disput\w*|overturn\w*|fight\w*)\b.{0,60}\b(fines?|penalt(y|ies)"
        r"|decisions?|orders?)\b(?=.{0,80}\b(court|judge|tribunal|legal(ly)?|regulator|authority|ico|gdpr)\b)"
        r"|\b(fines?|penalt(y|ies)|decisions?)\b.{0,60}\b(in|to|before) (a |the )?(court|tribunal|judge)\b",
        "judicial remedy due process procedural safeguards",
    ),
    (  # silence from the regulator is a matter for the courts; silence from the controller is a late answer
        r"\b(regulator|authority|ico|watchdog)\b.{0,80}"
        r"\b(heard nothing|no (reply|response|answer)|not (replied|responded))\b",
        "right to an effective judicial remedy against a supervisory authority",
    ),
    (
        r"\b(heard nothing|no (reply|response|answer)|not (replied|responded|answered)|still waiting)\b",
        "without undue delay and in any event within one month of receipt of the request",
    ),
    (r"\b(compensation|damages|sue|suing)\b", "right to compensation material or non-material damage"),
    (r"\b(dismiss|fire|sack|penalise)\w*\b", "dismissed or penalised"),
    (
        r"\b(passed|passing|handed|shared|disclosed) (it |them |the data |their data )?(on )?to other\b|\bthe other "
        r"(companies|organisations|firms)\b"
        r"|\b(companies|organisations|firms|people|others|bodies|suppliers) (that )?(we|they|you) (have )?(shared"
        r"|passed|gave|given|sent|disclosed)\b",
        "notification obligation regarding rectification or erasure recipients",
    ),
    (r"\b(paper|handwritten|index cards?|filing cabinet|card index)\b", "filing system manual processing"),
    (
        r"\b(every (single |other |few |two )?(day|week|fortnight|month)s?|over and over|again and again|repeated(ly)?"
        r"|keeps? (asking|requesting|sending|demanding))\b",
        "manifestly unfounded or excessive repetitive character",
    ),
    (
        r"\b(encrypt\w*|security measures?)\b|\b(keep|keeping|make|making|stay) (\w+ ){0,4}(secure|safe)\b"
        r"|\bsecur(e|ity) (of|for) (the |our |their |patient )?(data|records|systems?|archive|images)\b",
        # ... and, for data lost or stolen, what makes them unintelligible to whoever has them
        "security of processing appropriate technical and organisational measures unintelligible",
    ),
    # a DPIA whose high risk cannot be mitigated: prior consultation of the supervisory authority
    (
        r"\b(can'?t|cannot|can not|unable to|couldn'?t) (reduce|mitigate|lower|bring down)\b"
        r"|\bresidual (high )?risks?\b",
        "prior consultation high risk in the absence of measures taken by the controller to mitigate the risk",
    ),
    (r"\b(automated decision|algorithm|profiling|ai)\b", "automated individual decision-making profiling"),
    (
        r"\b(family member|daughter|son|carer|relative|proxy|on (my|their|his|her|our) behalf"
        r"|my (mum|mom|mother|dad|father|parent))\b",
        "representative proxy access",
    ),
    (r"\b(cross[- ]border|another eu country|abroad in the eu|travel)\b", "MyHealth@EU cross-border"),
    # something set up in one country used in another: "will that authorisation also work across the border?"
    (
        r"\b(work|valid|recogni[sz]ed|accepted|usable|used|count)\b.{0,30}\b(across|over) the border\b"
        r"|\b(work|valid|recogni[sz]ed|accepted|usable)\b.{0,20}\bin (another|other) (eu |member )?(country|countries"
        r"|state|states)\b",
        "interoperable among Member States",
    ),
    (r"\b(re-?use[ds]?|re-?using|secondary)\b", "secondary use"),
    (
        r"\b(stumble (up)?on|come across|discover|find) (something|anything)\b|\b(incidental|unexpected) findings?\b",
        "significant finding related to the health of a natural person",
    ),
    (r"\bdrag\w* (its|their) feet\b|\bstall\w*\b|\bobstruct\w*\b", "withholds obstructing deadlines enforcement"),
    (r"\b(patient portal|online record|nhs app)\b", "electronic health data access services"),
    # the information governance words for a new use of data: a flow, a feed or an extract is a transfer
    (
        r"\b(data (feeds?|flows?|extracts?)|(feeds?|extracts?) of (patient )?data)\b",
        "proposed use or transfer of confidential information",
    ),
    # a login used by several people: access that cannot be attributed to an individual
    (
        r"\b(share|shares|shared|sharing|one|same|common|generic) (\w+ )?(logins?|log-ins?|passwords?|accounts?"
        r"|smart ?cards?|user ?names?)\b",
        "access attributed to individuals",
    ),
    (r"\b(break[- ]glass)\b", "emergency access override"),
    # insurance wording
    (
        r"\b(co-?pay(ment)?)\b|\bpay (a |my |his |her |their )?(part|share|portion|percentage|proportion) of\b"
        r"|\bpay some of (the|my|his|her|their|our) (bills?|costs?|claims?|expenses)\b",
        "co-payment",
    ),
    (
        r"\bbefore (i'?m |i am |he is |she is |they are |being |getting |the )?(admitted|admission|hospitali[sz]ed)\b"
        r"|\b(pre|post)-?hospital\b"
        r"|\bafter (i'?m |i am |i was |being |getting |he was |she was )?(discharged|leaving hospital)\b"
        r"|\bafter (the |my |his |her |their |your )?discharge\b"
        r"|\bafter (i |he |she |we )?(left|came out of) hospital\b"
        r"|\b(before|after) (a |my |the |his |her |their )?(hospital stay|stay in hospital|admission)\b"
        r"|\bfollow-?up (treatment|care|visits?|appointments?|physio\w*|consultations?)\b",
        "pre-hospitalisation post-hospitalisation",
    ),
    (  # "When do I have to send those bills in?": a claim's documents submitted
        r"\b(send|sent|sending|post|posting) (\w+ ){1,2}(in|off)\b(?! (the |a )?(post|mail)\b)"
        r"|\b(send|sent|sending|post|posting) (in )?(the |my |our |his |her |those |these |all )?(bills|receipts"
        r"|papers|paperwork|invoices)\b",
        "submit claim documents",
    ),
    (
        r"\b(drunk|intoxicated|under the influence|addict\w*|rehab\w*|detox\w*|alcoholic|alcohol[- ]related"
        r"|(heavy|binge|problem) drinking|drinking problem)\b",
        "alcoholism substance abuse addictive condition",
    ),
    (r"\bgall ?stones?\b|\bgall ?bladder\b|\bkidney stones?\b", "stones in the gall bladder bile duct kidney"),
    # who may join: the entry age ("I'm 67 - am I too old to take out CareShield?")
    (
        r"\b(too old|too young|how old|age limits?|(maximum|minimum|upper|lower) age|age bar)\b"
        r"|\b(i'?m|i am|aged?) \d{1,2}\b.{0,40}\b(join|buy|take out|get|eligible|qualify|sign up|apply)",
        "entry age",
    ),
    # a group policy's roles in an employer's words: the Master Policyholder and its Members
    # ... the employer as the one acting, not "my employer's group rider" (the scene of a member's question)
    (
        r"\b(we'?re|we are|as|i'?m|i am) (the |an? )?(employer|hr)\b"
        r"|\b(the|our|my) (employer|company|hr)( department)? (pays?|gets?|receives?|cancels?|can|wants?|renews?"
        r"|ends?|stops?)\b",
        "Master Policyholder",
    ),
    (
        r"\b(employees?|staff|workers?)\b(?=.{0,80}\b(group|policy|rider|cover|insurance|claims?|premium)\b)"
        r"|\b(group|policy|rider|insurance|claims?|premium)\b.{0,80}\b(employees?|staff|workers?)\b",
        "Member",
    ),
    (
        r"\b(leav(e|es|ing)|left|quit(s|ting)?|resign\w*) (the |our |my |his |her |their )?(company|job|employer"
        r"|employment|firm|work|group)\b",
        "Member leaves the group migrate",
    ),
    # what a hospital stay itself costs: the in-patient hospitalisation expenses
    (
        r"\bhospital (bills?|costs?|expenses)\b|\bwhen (i'?m|i am|i'?ve been|i get|he is|she is) admitted\b",
        "in-patient hospitalisation expenses",
    ),
    # a short stay on a ward (a night, kept in for observation): whether it is long enough to be Hospitalisation
    (
        r"\b(one|1|a single|single|one[- ]night|overnight|short|brief|quick) (night'?s? |day'?s? )?(stay|admission)\b"
        r"|\b(stay(ed|ing)?|kept( in)?|admitted) (in hospital )?(overnight|for (one|a|the) night)\b"
        r"|\bkept in (hospital )?for observation\b|\b(admitted|kept) for observation\b",
        "Hospitalisation minimum period of 24 consecutive in-patient care hours",
    ),
    (r"\b(treated|treatment|care|nursing) at home\b|\bhome (treatment|care|nursing)\b", "domiciliary hospitalisation"),
    (r"\bsum insured\b|\bsi\b", "sum insured"),
    (r"\bfree[- ]look\b", "free look period"),
    # handing a policy back soon after buying it, for a refund: the free look (cooling-off) period
    (
        r"\bcooling[- ]off\b|\bchang\w* (my|our|his|her|their) minds?\b.{0,40}\b(buy|bought|buying|purchas\w*|polic"
        r"(y|ies)|rider|refund)|\b(hand|give|send|return)\w* (it|the (policy|rider)|my (policy|rider)) back\b"
        r"|\b(return|cancel)\w* (it|the (policy|rider)|my (policy|rider))\b.{0,40}\b(refund|money back)\b",
        "free look period",
    ),
    (r"\bgrace\b", "grace period"),
    (
        r"\b(pay|paid|paying) (\w+ ){0,3}late\b|\blate (payment|premium)\b|\bmiss(ed)? (a |the )?payment\b"
        r"|\b(don'?t|do not|didn'?t|did not|can'?t|cannot|fail to|forget to|forgot to) pay\b"
        r"|\b(pay|paid|payment)\b.{0,30}\b(not|isn'?t|wasn'?t) on time\b|\bmiss(ed)? (a |the |my )?premium\b",
        "grace period",
    ),
    (r"\b(room rent|room charges?)\b", "room rent boarding nursing"),
    (r"\b(ayurved\w*|homo?eopath\w*|unani|siddha|naturopath\w*|yoga)\b", "AYUSH treatment Ayurveda"),
    (r"\bicu\b|\biccu\b", "intensive care unit"),
    (r"\bwaiting\b", "waiting period"),
    # a new member asking when treatment is paid for asks about the waiting periods
    (
        r"\b(just|recently|newly) (joined|enrolled|signed up|bought|taken out|started)\b"
        r"|\bwhen (can|will|could) (i|we|he|she|they) (get|have|claim)\b|\bhow soon (can|will)\b",
        "waiting period continuous coverage",
    ),
    (r"\b(excluded|not covered|exclusion)\b", "exclusions shall not be liable"),
    (r"\bivf\b|\b(conceive|fertility treatment)\b", "in vitro fertilisation assisted reproduction infertility"),
    # the operations and means that prevent pregnancy, in the wordings' term
    (
        r"\b(vasectom\w*|tubal ligation|(tubes?|get his|get her|getting) tied|the snip|contraceptive\w*|the pill|coil"
        r"|iud|implant for contraception)\b",
        "contraception sterilisation",
    ),
    # care during pregnancy before the birth, and after it
    (
        r"\b((ante|pre)-?natal( (scans?|check-?ups?|care|appointments?|visits?|classes|tests?))?"
        r"|pregnancy (scans?|check-?ups?|appointments?|care)|(baby|dating|anomaly|growth) scans?"
        r"|midwife (appointments?|visits?|check-?ups?))\b",
        "pre-natal expenses maternity",
    ),
    (r"\b(post-?natal|after the birth|after giving birth|postpartum)\b", "post-natal expenses maternity"),
    (r"\b(for a living|professionally|as (a|my|his|her) job|paid to)\b", "professional"),
    (r"\b(races? cars?|racing cars?|car racing|motor ?sports?|rally driving)\b", "motor racing hazardous sports"),
    # telling the insurer about an admission or a claim: notifying the TPA or the Company, before it
    (
        r"\b(tell|inform|let \w+ know|warn|call|ring|contact)\b.{0,20}\b(insurer|insurance company|company|tpa)\b"
        r"|\blet (the |my |our |your )?(insurer|insurance company|company|tpa) know\b",
        "notify the TPA or the Company",
    ),
    (r"\b(days?|weeks?|hours?) (in advance|beforehand|ahead)\b|\bin advance\b", "before admission at least"),
    (r"\b(complain\w*|unhappy|not happy|dissatisfied)\b", "grievance redressal complaint ombudsman"),
    # a complaint about how one's data or records are handled goes to the data protection regulator
    (
        r"\bcomplain\w*\b(?=.{0,80}\b(data|records?|notes|(access|subject access) requests?|privacy|gdpr|dpo)\b)",
        "lodge a complaint with a supervisory authority",
    ),
    (r"\b(laser eye|lasik|glasses|spectacles|contact lenses|short-?sighted|long-?sighted)\b", "refractive error"),
    (r"\b(knee|hip|shoulder|elbow|ankle) replacements?\b", "joint replacement"),
    # the standard exclusions of health policies, as people put them
    (
        r"\b(nose|boob|breast) jobs?\b|\b(facelifts?|tummy tucks?|liposuction|botox)\b|\bjust for (my )?looks\b"
        r"|\b(to|so i) look (better|younger)\b",
        "cosmetic or plastic surgery change appearance",
    ),
    (r"\b(gender (reassignment|affirm\w*|transition)|sex change)\b", "change of gender treatments"),
    (
        r"\b(just|only|purely) (for|to have|to do|to run) (some |a few )?(tests?|investigations?|scans?|check-?ups?)\b"
        r"|\bno treatment\b",
        "admitted primarily for diagnostics and evaluation purposes investigation",
    ),
    (
        r"\b(forgot|forget|failed|didn'?t|did not|never) (to )?(mention|tell|declare|disclose)\w*\b"
        r"|\bnot (declared|disclosed)\b|\b(hid|hidden|lie|lies|lied|lying|untruthful\w*)\b"
        r"|\bfalse (information|answers?|statements?|declarations?|details)\b",
        "non-disclosure misrepresentation material facts",
    ),
    (
        r"\b(robbery|burglary|crime|criminal|illegal|unlawful act|breaking the law|theft|stealing|shoplift\w*"
        r"|break(ing)? into|broke into|breaking in|assault\w*)\b",
        "breach of law criminal intent",
    ),
    (r"\b(papers|paperwork)\b", "documents"),
    (
        r"\b(resign\w*|quit (my|the|his|her) job|leav(e|es|ing) (my|the|his|her) (job|employer|company))\b",
        "member leaves the group cover ceases",
    ),
    (
        r"\b(\d+|one|two|three|a few|some) (days?|weeks?) (after|since|into) (buying|joining|taking out|starting|"
        r"getting|the (policy|cover|rider) (started|began))\b",
        "waiting period first 30 days",
    ),
    # a condition someone had, or treatment planned, before the cover began
    (
        r"\b(before|prior to) (i |we |they |he |she )?(joined|joining|enrolled|enrolling|signed up|bought|buying"
        r"|took out|taking out|the (policy|cover|rider) (started|began))\b|\bdiagnosed before\b|\bexisting condition\b"
        # "diagnosed years ago", "I've had it for years"
        r"|\bdiagnosed (\w+ ){0,2}(years|months) ago\b|\bhad (it|this|that) (for|since) (years|ages|\d+ years)\b"
        # "I was treated for a heart condition last year - do I have to wait before that's covered?"
        r"|\b(treated|diagnosed|seen|operated on) for (\w+ ){1,4}?(last|the previous) (year|month|winter|summer"
        r"|spring|autumn)\b|\b(treated|diagnosed) (\w+ ){0,2}(years|months) (ago|before)\b",
        "pre-existing disease",
    ),
    (
        r"\b(hav(e|ing) a baby|give birth|giving birth|childbirth|pregnan\w*|caesarean|c-section"
        r"|deliver(y|ies) (costs?|expenses|bills?|charges)|(the|her|a|my|our) (baby's )?birth"
        r"|(her|my|wife's|partner's) deliver(y|ies)|start(ing)? a family)\b",
        "maternity delivery",
    ),
    # a stay or an operation arranged ahead: what a wording calls planned (against an emergency)
    (r"\b(booked|scheduled|arranged|lined up|coming up)\b", "planned"),
    (r"\b(private|single|deluxe) room\b", "room rent room category"),
    # a member leaving the employer's group keeps cover by migrating to an individual policy
    (
        r"\b(leav(e|es|ing)|left|quit(s|ting)?|resign\w*) (my |the |our |his |her )?(job|employer|company|group)\b",
        "leaves the group migrate individual policy",
    ),
    # a higher sum insured: the waiting periods apply afresh to the extent of the increase
    (
        r"\b(increas\w*|rais\w*|bump\w*|top(ped|ping)? up|enhanc\w*|upgrad\w*) (\w+ ){0,3}(sum insured|cover)\b"
        r"|\b(sum insured|cover) (\w+ ){0,2}(up|increased|higher)\b",
        "Sum Insured is enhanced afresh to the extent of the increase",
    ),
    # a claim paid to the employer: payment is made to the member, never to the master policyholder
    (
        r"\b(employer|company)'?s? (bank )?account\b|\bpay (it |the claim |them )?(in)?to (the |my |our )?employer\b",
        "payment is made to the Member Master Policyholder",
    ),
    (
        # (not "Will it be paid?", which asks whether a claim is covered)
        r"\b(paid out|pay out|payout)\b|\b(get|be) paid (to|into|directly)\b"
        r"|\bwho (receives|gets|is paid) (the )?(claim )?(payment|money|amount)\b|\bpaid to whom\b",
        "settle claim settlement payment is made to",
    ),
    # a complaint or problem sorted out: resolved
    (
        r"\bsort(ed|ing)? (it|this|that|things|them|the \w+) out\b|\bsort out\b|\bfix(ed)? the (problem|issue)\b",
        "resolve",
    ),
    # a claim or payment made late: what the payer owes for the delay
    (
        r"\b(penalt(y|ies)|compensat\w*|interest|pay (\w+ )?extra)\b.{0,40}\b(late|delay\w*|overdue)\b"
        r"|\b(late|delay\w*|overdue)\b.{0,30}\b(settl\w*|claims?|payouts?|reimburs\w*)\b",
        "payment is delayed interest",
    ),
    (
        r"\b(passport|proof of identity|prove who i am|\bid\b)|\bcheck (that )?(it'?s|it is|he'?s|she'?s|they'?re)"
        r" (really )?(him|her|them|the patient|who)\b|\b(verify|confirm|check) (his|her|their|the caller'?s?)"
        r" identity\b"
        r"|\bis (really )?who (he|she|they) (says?|claims?)\b",
        "reasonable doubts concerning the identity confirm the identity of the data subject",
    ),
    # people around patients' information who are not clinicians: each must know their responsibilities
    (
        r"\b(volunteers?|porters?|cleaners?|students?|agency staff|temporary staff|new staff|new starters?|contractors?"
        r"|domestic staff)\b.{0,80}\b(patient|patients'|confidential|personal) (information|data|details|records)\b",
        "everyone with access to confidential information aware of their responsibilities",
    ),
    # several people on one account: each user needs an identity of their own
    (
        r"\b(share|sharing|shared|use|using) (a |one |the same |a single |our )?(single |shared |common |team )?"
        r"(login|log-in|account|password|user ?name|credentials)\b|\b(single|shared|common|team|generic) (login|log-in"
        r"|account|password|user ?name|credentials)\b",
        "individual and unique user identities access attributed to individuals",
    ),
    # information given by word of mouth: it may be given orally, the identity proven by other means
    (
        r"\b(over the (phone|telephone)|by (phone|telephone)|orally|verbally|read (it )?(out|aloud)"
        r"|in person rather)\b",
        "information provided orally identity proven by other means",
    ),
    # several hospitals or companies under one owner: a group of undertakings
    (
        r"\bgroup of (companies|hospitals|clinics|practices|firms)\b|\b(hospital|healthcare|clinic|corporate) group\b"
        r"|\bthe whole group\b",
        "group of undertakings single data protection officer",
    ),
    # a contract drafted for the purpose rather than the Commission's standard clauses
    (
        r"\b(bespoke|own|custom|tailor[- ]made|tailored|home[- ]made|self[- ]drafted) (\w+ ){0,3}(contracts?|clauses"
        r"|agreements?)\b|\bdrafted (their|our|its) own\b",
        "contractual clauses subject to authorisation from the competent supervisory authority",
    ),
    # clinical shorthand: what was done to a patient, in the wordings' terms (an acronym here is no name a clause
    # must mention)
    (r"\b(iv|intravenous)( fluids?| drips?| antibiotics?)?\b|\bon a drip\b", "in-patient care treatment"),
    (  # a scan paid for under a wording (not a test result sent to the wrong patient)
        r"(?=.*\b(claim|cover(ed)?|rider|policy|insur\w*|reimburs\w*)\b).*(\b(mri|ct|x-?rays?|ultrasound)( scans?)?\b"
        r"|\bblood tests?\b)",
        "diagnostics diagnostic procedures",
    ),
    # the standard exclusions of health insurance wordings, in the words claimants use
    (
        r"\b(experimental|unproven|untested|not (yet )?(been )?proven|no (published |scientific |medical )?evidence"
        r"( that)? it works)\b",
        "unproven treatments lacks significant medical documentation to support its effectiveness",
    ),
    (
        r"\b(can'?t|cannot|unable to|no longer able to|can no longer) (bathe|wash|dress|feed|eat|look after)\b"
        r"|\b(just|only|simply) (so|to be|to get) (that )?(he|she|they|i)?('?s|'?re|'?m| is| are| am)? ?(looked after"
        r"|cared for)\b|\brespite\b|\bbed rest\b",
        "rest cure respite custodial care for help with daily activities such as bathing, dressing or eating",
    ),
    (  # a visit to a specialist, or a scan, with no stay in hospital
        r"(?=.*\b(claim|cover(ed)?|rider|policy|insur\w*|reimburs\w*)\b).*(\bout-?patient\b|\b(no|without|didn'?t need"
        r"|never needed)( any| an)? (\w+ or )?(admission|hospital stay|operation)\b)",
        "out-patient consultations and diagnostics not followed by a Day Care Treatment",
    ),
    (  # moving an insurance cover to another insurer: credit for waiting periods served
        r"\b(port(ing|ed)?|switch(ing|ed)?|mov(e|ing)) (it |my (cover|policy|plan) |this (cover|policy) )?to (another"
        r"|a new|a different) insurer\b|\bporting\b",
        "port this cover to another insurer portability credit for waiting periods",
    ),
    # what data may not be used for: the uses a provision prohibits
    (
        r"\b(can'?t|cannot|can not|must not|mustn'?t|may not|not allowed to|forbidden|banned)\b.{0,30}\b(uses?|used)\b"
        r"|\b(uses?|used)\b.{0,40}\b(forbidden|banned|not allowed)\b",
        "prohibited uses",
    ),
    (
        r"\bstop (them |the \w+ )?(from )?using\b|\bfreez\w*|\bput (\w+ ){0,2}on hold\b|\bput a hold on\b",
        "restriction of processing",
    ),
    # the use restricted starts again: "before they start using it normally again", "when the hold is lifted"
    (
        r"\b(start|begin|resume|go back to) (using|processing) (it|them|my \w+|the \w+)( \w+)? (normally )?again\b"
        r"|\b(lift|lifted|lifting|remove|removed|end|ended) (the |that )?(hold|restriction|freeze)\b"
        r"|\b(hold|restriction|freeze) (is |was |has been )?(lifted|removed|ended)\b|\bunfreez\w*",
        "restriction of processing is lifted",
    ),
    # software or systems no longer supported by their makers: unsupported systems (NDG standard 8)
    (
        r"\b(no longer|not|never) (gets?|getting|receiv\w*|being) (\w+ )?(updates|updated|patch\w*|support\w*)\b"
        r"|\bout[- ]of[- ]date (software|browsers?|operating systems?|windows|systems?|machines|pcs|computers)\b"
        r"|\b(old|outdated|legacy) (web )?(browsers?|operating systems?|windows|software)\b|\bend[- ]of[- ]life\b"
        r"|\bunsupported\b",
        "unsupported operating systems, software or internet browsers",
    ),
    # the number or address to contact an insurer on: its helpline, for a grievance or a claim
    (
        r"\b(what|which) (phone |telephone )?(number|helpline|email( address)?|address)\b.{0,40}\b(ring|call|phone"
        r"|contact|complain\w*|email|write)\b|\b(ring|call|phone) (them|the insurer|the company|asterisk)\b",
        "contact the Company helpline email address",
    ),
    # a processor helping with people's requests to exercise their rights (28(3)(e))
    (
        r"\b(suppliers?|processors?|vendors?|contractors?|providers?|companies)\b.{0,40}\b(help|assist|support)\w*\b"
        r".{0,60}\b(requests?|rights|sars?|subject access)\b",
        "processor assists the controller for the fulfilment of the controller's obligation to respond to requests"
        " for exercising the data subject's rights",
    ),
    # data reused for research, against the purpose they were collected for: not incompatible (5(1)(b))
    (
        r"\b(reus\w*|re-us\w*|further use|use (it|them|the data|patient data) again)\b"
        r"(?=.{0,120}\b(research|stud(y|ies)|statistic\w*|archiv\w*)\b)(?=.{0,160}\bpurposes?\b)",
        "further processing for scientific research purposes not considered to be incompatible with the initial"
        " purposes",
    ),
    # how long a person's own data will be kept, asked of the organisation: the right of access tells them
    (
        r"\b(ask|find out|know|be told|tell me)\b.{0,30}\bhow long\b.{0,40}\b(keep|kept|retain|store|hold)\w*",
        "right of access envisaged period for which the personal data will be stored",
    ),
    # a patient's wish to donate organs after death: the post-mortem donor status a record carries
    (
        r"\borgan donat\w*|\borgan donors?\b|\bdonat\w* (my|their|his|her|the) organs\b"
        r"|\bdonor (card|status|register)\b",
        "post-mortem donor status cadavericDonor",
    ),
    # insurance claims made available under the EHDS: administrative data on reimbursement claims
    (
        r"\b(insurance )?claims?( data| records| history)?\b(?=.{0,80}\b(research|secondary use|ehds|health data"
        r" space|eu health data rules|data (access|permit))\b)",
        "healthcare-related administrative data including reimbursement claims",
    ),
    # patient data over channels not made for them: how confidential data must be handled and sent
    (
        r"\b(whatsapp|signal|telegram|messaging apps?|text messages?|texts?|sms|personal (phones?|mobiles?|e-?mails?"
        r"|devices?|laptops?|accounts?)|own (phones?|mobiles?|devices?)|gmail|hotmail|usb sticks?|memory sticks?)\b"
        r"(?=.{0,160}\b(patients?|records?|photos?|images?|results?|data|notes|clinical)\b)"
        r"|\b(patients?|records?|photos?|images?|results?|data|notes|clinical)\b.{0,160}\b(whatsapp|messaging apps?"
        r"|personal (phones?|mobiles?|e-?mails?|devices?|accounts?)|own (phones?|mobiles?|devices?)|gmail|hotmail)\b",
        "personal confidential data is handled, stored and transmitted securely",
    ),
    # how information for people must be written: clear and plain language, a child's own reading level (12(1))
    (
        r"\b(worded|wording|written|phrased|language|plain english|easy to (read|understand)|simple (words|terms)"
        r"|jargon|readable)\b(?=.{0,80}\b(privacy|notice|information|leaflet|letter|form|app|children|kids)\b)"
        r"|\b(privacy (information|notice|policy)|notice|leaflet)\b.{0,80}\b(worded|wording|written|phrased|language"
        r"|easy to (read|understand)|jargon|readable)\b",
        "concise, transparent, intelligible and easily accessible form, using clear and plain language",
    ),
    # one assessment for the same processing run in several places (35(1): "One assessment may cover a set of ...")
    (
        r"\b(separate|individual|multiple|several|one|a single|each|two|three|four|five|\d+) (separate )?(dpias?"
        r"|data protection impact assessments?|impact assessments?)\b",
        "one assessment may cover a set of similar processing operations that present similar high risks",
    ),
    # working out who a person in a dataset is: re-identification
    (
        r"\b(work|figure|find) out (which|who) (\w+ ){0,5}?(is|was|are|were)\b"
        r"|\b(identify|recognise|recognize|single out|trace|unmask) (me|him|her|them|people|patients|individuals|who"
        r"|which)\b|\bre-?identif\w*|\bde-?anonymi[sz]\w*",
        "re-identify re-identification",
    ),
    # people working for an organisation using data only as it says: acting under its authority, on its instructions
    (
        r"\b(only|just) (use|process|access|handle|open)\w* (\w+ ){0,4}(the way|as|how) (we'?ve|we have|we|they'?ve"
        r" been|they are|they were|they'?re) (told|instructed|asked|authorised|allowed)\b"
        r"|\b(on|following|under|within) (our|the controller'?s?|my|their employer'?s?) instructions\b",
        "natural person acting under the authority of the controller who has access to personal data does not process"
        " them except on instructions from the controller",
    ),
    # a person wanting data kept that the organisation would delete: restriction instead of erasure
    (
        r"\b(make|get|ask|force) (them|the \w+|it) (to )?(keep|hold on to|retain|not (delete|destroy|erase|shred))\b"
        r"|\bstop (them|the \w+) (from )?(deleting|destroying|erasing|shredding|getting rid of)\b",
        "restriction of processing instead of erasure required by the data subject",
    ),
    # what protects one's data sent abroad: the safeguards of the transfer, which a person may be told of (15(2))
    (
        r"\b(protections?|safeguards?|protected|safe)\b.{0,60}\b(send\w*|sent|transfer\w*|mov\w*|go(es|ing)?)\b"
        r"(?=.{0,80}\b(abroad|overseas|over there|another country|outside|third countr(y|ies)|india|usa|america"
        r"|china)\b)",
        "informed of the appropriate safeguards relating to the transfer third country",
    ),
    # a breach whose harm was headed off afterwards (the device got back unopened): the high risk no longer likely
    (
        r"\b(recovered|got (it|them) back|found (it|them)|returned|retrieved)\b.{0,60}\bbefore (anyone|anybody|someone"
        r"|it|they) (could |had )?(open|opened|access|accessed|read|use|used|see|seen)\b",
        "subsequent measures which ensure that the high risk is no longer likely to materialise",
    ),
    # an incident stopped before harm was done: a near miss
    (
        r"\b(nearly|almost|about to|was going to) (\w+ ){0,2}(sent|send|faxed|fax|emailed|email|posted|post|disclosed"
        r"|shared|given|handed|released|uploaded)\b|\b(spotted|caught|noticed|stopped) (it|this|that|the error|the"
        r" mistake) (just )?(before|in time)\b|\bnear[- ]miss(es)?\b",
        "near miss",
    ),
    # data an organisation holds that have gone out of date: the accuracy principle, its own duty (5(1)(d))
    (
        r"\b(out[- ]of[- ]date|outdated|stale|obsolete|inaccurate|incorrect|wrong|old)\b (\w+ ){0,2}(addresses|details"
        r"|data|records|information|phone numbers|contact details|entries)\b(?=.{0,200}\b(we|our|us)\b)"
        r"|\b(our|we) (\w+ ){0,4}(hold|holds|have|keep|store)s? (\w+ ){0,3}(out[- ]of[- ]date|outdated|inaccurate"
        r"|incorrect|wrong|old)\b",
        "accurate and, where necessary, kept up to date every reasonable step inaccurate erased or rectified without"
        " delay",
    ),
    # an objection still being weighed: processing may be restricted pending that verification (18(1)(d))
    (
        r"\b(object\w*)\b.{0,160}\b(while|until|meantime|meanwhile|pending|before) (they|we|the \w+|it)?\s?"
        r"(decide|decides|consider|considers|weigh|weighs|look|looks|check|checks|work out|make up)"
        r"|\b(their|its|the hospital'?s|the trust'?s) (reasons|grounds) (outweigh|override)\b",
        "restriction of processing pending the verification whether the legitimate grounds of the controller override",
    ),
    # while the accuracy is checked, processing may be restricted (not the data corrected yet)
    (
        r"\b(disput|contest|challeng|disagree)\w*\b.{0,60}\b(accura\w*|correct|wrong|right)\b"
        r"|\bwhile (they|you|we|the \w+)('re|'s| are| is)? (check|verif)\w*",
        "restriction of processing accuracy contested",
    ),
    (
        r"\b(decides? automatically|automatically decides?"
        r"|(computer|machine|software|algorithm)( program| system)?( alone| on its own)? decid(es?|ed|ing)"
        r"|decided by a (computer|machine)|(computer|machine|algorithm) alone|without a human|no human"
        r"|without (any|a) (person|human|people)( \w+)?)\b"
        r"|\b(computer|machine|software|algorithm|system)\b.{0,30}\b(reject|refus|turn\w* down|approv)\w*"
        r"|\b(no|without a|without any) (one|person|human|member of staff)( ever)? (look|check|review)\w*",
        "automated individual decision-making human intervention",
    ),
    # a person looking at what a machine decided is the law's "human intervention"
    (
        r"\b(a |real )?(human|person|member of staff) (to )?(look|looks|review|reviews|check|checks|decide)\b"
        r"|\bhuman (review|check|oversight)\b",
        "right to obtain human intervention",
    ),
    # where the processing physically happens does not decide whether an EU establishment's processing is covered
    (
        r"\b(physically|actually) (happens?|takes? place|done|carried out)\b|\bwhere the processing (happens|takes"
        r" place)\b|\b(hosted|stored|processed|hosts everything) (\w+ ){0,4}outside the (eu|union|eea)\b",
        "applies to processing in the context of the activities of an establishment regardless of whether the"
        " processing takes place in the Union",
    ),
    (
        r"\b(no (office|establishment|presence) in (europe|the eu)|not (based|established) in (europe|the eu)"
        r"|outside (europe|the eu))\b",
        "territorial scope not established in the Union offering of goods or services monitoring of behaviour",
    ),
    (
        r"\b(my family'?s?|for myself|personal use|household|at home|personal (address book|diary|contacts)"
        r"|(my |our )?home (computer|laptop|pc)|my (elderly )?(parents|mum|dad|mother|father|children|kids)'? "
        r"(tablets|medicines|medication|appointments)"
        r"|(my )?friends'?|christmas cards?|family photos?|private social media)\b",
        "purely personal or household activity",
    ),
    # passing a patient's information to another clinician who treats them: sharing within the care team
    (
        r"\b(shar\w*|send\w*|pass\w*|giv\w*) .{0,60}\b(another|other|the next|a different|their|the|a|my|his|her"
        r"|the patient'?s?) (\w+ )?(doctors?|gps?|clinicians?|hospitals?|consultants?|nurses?|specialists?)\b"
        r".{0,40}\b(treat\w*|care)\b",
        "sharing within the care team for individual care implied consent",
    ),
    (
        r"\b(to treat|treat(ing)? (me|them|him|her|patients?)|provid(e|ing) (my |their )?care|direct care"
        r"|medical care|diagnos(e|is|ing)|(my|their|his|her|your) own (treatment|care))\b",
        "medical diagnosis provision of health or social care or treatment",
    ),
    (
        r"\bwho('s| has| have| had)?( been)? (looked|looking|accessed|accessing|seen|viewed|viewing|opened|opening)\b"
        r"|\baccess (logs?|history)\b"
        # "will it show when and what they looked at?"
        r"|\b(when|what|which (parts?|bits?|data|records?))\b( and (when|what|which))? (they|he|she|the \w+|someone)"
        r" (looked at|looks at|accessed|opened|viewed|saw|read)\b",
        "information on the healthcare providers and health professionals that have accessed their data date and time"
        " of access",
    ),
    (r"\b(nhs trusts?|public bod(y|ies)|public sector|council|government department)\b", "public authorities"),
    (r"\b(hold back|withhold|keep back|refuse to (give|show))\b", "restriction of rights exemption"),
    # a controller saying no to a person's request: the only general grounds are in Art. 12(5)
    (
        r"\b(refus\w*|turn(ed|s)? down|say no|reject\w*|decline\w*|ignore\w*)\b.{0,60}\b(cop(y|ies)|requests?|records?"
        r"|notes|my data|my file)\b",
        "refuse to act on the request manifestly unfounded or excessive",
    ),
    # ... and what the controller then owes the person: the reasons and the remedies, within a month (Art. 12(4))
    (
        r"\b(decided?|decision|chose|choose|choosing|going) not to (act|action|comply|go ahead|erase|delete|do it)\b"
        r"|\bnot (to )?act(ing)? on (the|a|their|his|her|this|that) request\b"
        r"|\b(refus\w*|turn\w* down|reject\w*|declin\w*) (the|a|their|his|her|this|that) request\b"
        r"(?=.{0,120}\b(tell|inform|say|explain|let)\b)",
        "does not take action on the request reasons for not taking action lodging a complaint",
    ),
    (
        r"\bcharge (me|us|them|a fee)?\b|\bpay for (a )?cop(y|ies)\b|\bfor free\b|\bfree of charge\b"
        r"|\bpay (\w+ ){0,2}(to )?(see|get|access|read|view)\b.{0,30}\b(records?|notes|data|file)\b"
        r"|\b(records?|notes|data|file|copy)\b.{0,30}\b(unless|until|if) (i|we|they) pay\b"
        r"|\b(have|need|got) to pay\b(?=.{0,60}\b(records?|data|notes|access\w*|authoris\w*|proxy|cop(y|ies))\b)",
        "free of charge reasonable fee",
    ),
    # "add those readings to my record", "put my own notes into my electronic health record"
    (
        r"\b(put|add|write|enter|upload)\b.{0,40}\b(in|into|to|on)\b (my|their|his|her|our) (own )?"
        r"(electronic health |health |medical )?(records?|ehrs?|notes|file)\b",
        "insert information in their own EHR",
    ),
    # "can I edit my doctor's entries?", "could she change what I've written?": what health professionals inserted
    (
        r"\b(edit|change|alter|amend|delete|remove|overwrite|rewrite)\w*\b.{0,30}\b((my|the|her|his|their) "
        r"(doctor|gp|nurse|clinician|consultant|surgeon)'?s?'? (entries|notes|entry|note|records?)"
        r"|what (i|the doctor|my doctor|the gp|the nurse|a clinician|the clinician)('ve| has| have)? "
        r"(written|wrote|entered|recorded))\b",
        "directly alter information health professionals have inserted",
    ),
    (r"(?<!data )\bbreach(es)?\b", "personal data breach"),
    # "checked by anyone outside": an audit, by third parties
    (
        r"\b(checked|inspected|reviewed|verified|examined|looked at) by (anyone|someone|somebody|an?|any)?\s?"
        r"(outside|external|independent|third[- ]part(y|ies))",
        "audited by third parties",
    ),
    # a breach log, and a notification sent before every fact is known
    (
        r"\b(keep|kept|keeping|maintain\w*) (a |an |our )?(record|log|register|list)s? of (\w+ ){0,3}(breach|incident)"
        r"|\bbreach (log|register)s?\b"
        # "a letter went to the wrong patient ... do we still need to keep any record of it?"
        r"|(?=.*\b(breach\w*|incidents?|leak\w*|wrong (patient|person|address))\b).*\b(keep|kept|keeping|maintain\w*)"
        r" (a |an |our |any )?(record|log|note)s? of (it|them|this|that)\b"
        # "do breaches we don't report still need logging?", "must every incident be logged?"
        r"|\b(breach\w*|incidents?)\b.{0,60}\b(logg(ed|ing)|recorded|documented|written down)\b",
        "document any personal data breaches",
    ),
    (
        r"\b(fill|filling|add|adding|send|sending) (in )?(the )?(rest|details|gaps|remainder) (in |at )?later\b"
        r"|\b(bit by bit|in stages|in instalments|don'?t (yet )?know the full (picture|story)|full picture)\b",
        "information provided in phases without undue further delay",
    ),
    # asking for a deadline or for whom to notify: the law writes time limits and notification duties
    (
        r"\b(by when|deadline|how (quickly|soon|fast)|time limit|how (long|much time) do (i|we|they|you) have"
        r"|how (long|much time) have (i|we|they|you) got)\b",
        "without undue delay not later than within time limit",
    ),
    (r"\bwho (do|does|must|should) (i|we|they|you|he|she|it) (have to |need to )?(tell|inform|notify)\b", "notify"),
    # record questions: "what is she taking?", "what's he on?" ask for the medication record
    (r"\bwhat('s| is| are) (she|he|they|the patient|\w+) (taking|on)\b", "medications"),
    # record questions: a drug class to its members (general pharmacology, the BNF's classes), never to
    # the medicines a particular record happens to hold
    (
        r"\b(anticoagulants?|blood thinners?)\b",
        "apixaban rivaroxaban edoxaban dabigatran warfarin heparin enoxaparin",
    ),
    (r"\binhalers?\b", "salbutamol terbutaline beclometasone budesonide fluticasone tiotropium formoterol salmeterol"),
    (
        r"\b(painkillers?|pain relief|analgesics?)\b",
        "paracetamol ibuprofen naproxen codeine co-codamol tramadol morphine",
    ),
    (
        r"\bantibiotics?\b",
        "amoxicillin penicillin flucloxacillin clarithromycin doxycycline nitrofurantoin trimethoprim cefalexin",
    ),
    # record questions: conditions by their lay names and abbreviations (the NHS's health A to Z), as records
    # code them
    (r"\bcopd\b", "chronic obstructive pulmonary disease chronic obstructive lung disease"),
    (r"\b(high blood pressure|raised blood pressure|htn)\b", "hypertension"),
    (r"\b(high cholesterol|raised cholesterol)\b", "hyperlipidemia hyperlipidaemia hypercholesterolaemia"),
    (r"\bheart attacks?\b", "myocardial infarction"),
    (r"\b(underactive thyroid)\b", "hypothyroidism"),
    (r"\b(overactive thyroid)\b", "hyperthyroidism"),
    (r"\b(acid reflux|heartburn|gord|gerd)\b", "gastroesophageal reflux disease"),
    (r"\bdepression\b", "depressive disorder"),
    (r"\b(ckd|kidney disease)\b", "chronic kidney disease"),
    (r"\b(af|a-fib|afib|irregular heartbeat)\b", "atrial fibrillation"),
]
_COMPILED = [(re.compile(pattern, re.I), terms) for pattern, terms in EXPANSIONS]


def expansion_terms(question: str) -> list[str]:
    """Legal and technical terms for the jargon and plain words a question uses."""
    return [terms for _, terms in bridges(question)]


@lru_cache(maxsize=1024)  # retrieval, grading (once per candidate chunk), support and the composer ask again
def bridges(question: str) -> tuple[tuple[str, str], ...]:
    """The plain words the question uses for each row and the legal terms they stand for: ("correct wrong",
    "rectification inaccurate personal data"). A text that uses the legal terms covers those words."""
    found = []
    for pattern, terms in _COMPILED:  # most rows match nothing: one scan each, the phrase only built for a match
        if pattern.search(question) and (phrase := " ".join(m.group(0) for m in pattern.finditer(question))):
            found.append((phrase, terms))
    return tuple(found)


BRIDGE_SHARE = 0.5  # share of a plain phrase's legal terms a passage must use to cover the phrase
# a sentence must use more of them: half of "right of access copy of the personal data" is any sentence on the
# rights of data subjects
SENTENCE_BRIDGE_SHARE = 2 / 3


@lru_cache(maxsize=1024)
def bridge_words(question: str) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """Each plain phrase of the question and the legal terms it stands for, as words (stems)."""
    return tuple((frozenset(words(phrase)), frozenset(words(terms))) for phrase, terms in bridges(question))


def covers_bridge(legal: frozenset[str], text_terms: set[str] | frozenset[str], share: float = BRIDGE_SHARE) -> bool:
    """A text covers a plain phrase when it uses enough of the legal terms the phrase stands for: the provision
    in the law's words ("rectification of inaccurate personal data") says what the user's words ("update my
    address") ask about."""
    return bool(legal) and len(legal & text_terms) >= share * len(legal)


def bridged_words(question: str, sentence_terms: set[str] | frozenset[str]) -> set[str]:
    """The words of the question's plain phrases that a sentence says in the law's terms."""
    covered: set[str] = set()
    for phrase, legal in bridge_words(question):
        if covers_bridge(legal, sentence_terms, SENTENCE_BRIDGE_SHARE):
            covered |= phrase
    return covered


def expand(question: str) -> str:
    """The question followed by the expansion terms (the user's words stay first)."""
    extra = [t for t in expansion_terms(question) if t.lower() not in question.lower()]
    return f"{question} ({'; '.join(extra)})" if extra else question
