#!/usr/bin/env python3
"""Writes the JMeter plans of this folder from one description, so they cannot drift apart.

    python3 jmeter/plans/generate.py           # rewrite every *.jmx
    python3 jmeter/plans/generate.py --check   # exit 1 if a committed *.jmx differs from what this writes

Why a generator: every plan holds its samplers twice (once in the closed-model Thread Group, once in
the Open Model Thread Group, only one of which gets any load), and gateway/direct/monolith/floor/stock/gateway-mvc
must issue the byte-identical request. The output is plain, standalone JMeter 5.6.3 XML: nothing here is needed
to run a plan. Edit this file, not the .jmx files.
"""
import sys
import xml.dom.minidom
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

HERE = Path(__file__).resolve().parent
CATALOG = HERE.parent.parent / "lab.properties"  # the one definition of services, ports and targets


def lab_properties():
    """key -> value of lab.properties (Java properties: key=value lines, # comments; no continuations used)."""
    props = {}
    for line in CATALOG.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "!")) and "=" in line:
            key, value = line.split("=", 1)
            props[key.strip()] = value.strip()
    return props


LAB = lab_properties()


def port(service):
    """The default port of a lab service, as a string for the plans' __P defaults."""
    return LAB["service.%s.port" % service]


def target_port(target):
    """The default port of a load target: its service's port."""
    return port(LAB["target.%s.service" % target])


def P(name, default):
    """A JMeter property with its default (commas in a default would need escaping: none have any)."""
    return "${__P(%s,%s)}" % (name, default)


RATE = P("rate", "0")
DURATION = P("duration", "30")

# ---------------------------------------------------------------------------------------------
# XML helpers (JMeter 5.6 save format: no enabled="true", hashTree after every element)
# ---------------------------------------------------------------------------------------------


def string_prop(name, value):
    return "<stringProp name=%s>%s</stringProp>" % (quoteattr(name), escape(value))


def bool_prop(name, value):
    return "<boolProp name=%s>%s</boolProp>" % (quoteattr(name), "true" if value else "false")


def int_prop(name, value):
    return "<intProp name=%s>%d</intProp>" % (quoteattr(name), value)


def element(tag, guiclass, testclass, testname, props, children=()):
    """One test element followed by its hashTree of children (each child already a string)."""
    head = "<%s guiclass=%s testclass=%s testname=%s>" % (tag, quoteattr(guiclass), quoteattr(testclass),
                                                         quoteattr(testname))
    body = "".join(props)
    tree = "<hashTree>%s</hashTree>" % "".join(children) if children else "<hashTree/>"
    return "%s%s</%s>%s" % (head, body, tag, tree)


def arguments(name, args):
    """HTTP arguments (form fields); args is a list of (name, value)."""
    items = "".join(
        '<elementProp name=%s elementType="HTTPArgument">%s%s%s%s%s</elementProp>' % (
            quoteattr(n), bool_prop("HTTPArgument.always_encode", True), string_prop("Argument.value", v),
            string_prop("Argument.metadata", "="), bool_prop("HTTPArgument.use_equals", True),
            string_prop("Argument.name", n))
        for n, v in args)
    return ('<elementProp name=%s elementType="Arguments" guiclass="HTTPArgumentsPanel" testclass="Arguments">'
            '<collectionProp name="Arguments.arguments">%s</collectionProp></elementProp>' % (quoteattr(name), items))


def raw_body(value):
    return ('<boolProp name="HTTPSampler.postBodyRaw">true</boolProp>'
            '<elementProp name="HTTPsampler.Arguments" elementType="Arguments">'
            '<collectionProp name="Arguments.arguments"><elementProp name="" elementType="HTTPArgument">'
            + bool_prop("HTTPArgument.always_encode", False) + string_prop("Argument.value", value)
            + string_prop("Argument.metadata", "=") + '</elementProp></collectionProp></elementProp>')


# ---------------------------------------------------------------------------------------------
# Test elements
# ---------------------------------------------------------------------------------------------


def test_plan(name, comment, children):
    props = [
        string_prop("TestPlan.comments", comment),
        bool_prop("TestPlan.functional_mode", False),
        bool_prop("TestPlan.tearDown_on_shutdown", True),
        bool_prop("TestPlan.serialize_threadgroups", False),
        '<elementProp name="TestPlan.user_defined_variables" elementType="Arguments" guiclass="ArgumentsPanel"'
        ' testclass="Arguments" testname="User Defined Variables">'
        '<collectionProp name="Arguments.arguments"/></elementProp>',
    ]
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!-- Generated by generate.py in this folder: edit that and run it, not this file. -->\n'
            '<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3">'
            '<hashTree>%s</hashTree></jmeterTestPlan>\n'
            % element("TestPlan", "TestPlanGui", "TestPlan", name, props, children))


def http_defaults(default_port):
    """host/port/protocol/timeouts from -J properties; HttpClient4; UTF-8 bodies."""
    return element("ConfigTestElement", "HttpDefaultsGui", "ConfigTestElement", "HTTP Request Defaults", [
        '<elementProp name="HTTPsampler.Arguments" elementType="Arguments" guiclass="HTTPArgumentsPanel"'
        ' testclass="Arguments" testname="User Defined Variables">'
        '<collectionProp name="Arguments.arguments"/></elementProp>',
        string_prop("HTTPSampler.domain", P("host", "127.0.0.1")),
        string_prop("HTTPSampler.port", P("port", default_port)),
        string_prop("HTTPSampler.protocol", P("protocol", "http")),
        string_prop("HTTPSampler.contentEncoding", "UTF-8"),
        string_prop("HTTPSampler.implementation", "HttpClient4"),
        string_prop("HTTPSampler.connect_timeout", P("connectTimeout", "2000")),
        string_prop("HTTPSampler.response_timeout", P("responseTimeout", "10000")),
    ])


def header_manager(headers):
    items = "".join(
        '<elementProp name="" elementType="Header">%s%s</elementProp>'
        % (string_prop("Header.name", n), string_prop("Header.value", v)) for n, v in headers)
    return element("HeaderManager", "HeaderPanel", "HeaderManager", "HTTP Header Manager",
                   ['<collectionProp name="HeaderManager.headers">%s</collectionProp>' % items])


def cookie_manager(clear_each_iteration):
    return element("CookieManager", "CookiePanel", "CookieManager", "HTTP Cookie Manager", [
        '<collectionProp name="CookieManager.cookies"/>',
        bool_prop("CookieManager.clearEachIteration", clear_each_iteration),
        bool_prop("CookieManager.controlledByThreadGroup", False),
    ])


def closed_thread_group(children, on_error, threads_default="8", duration=DURATION):
    """Classic closed model: `threads` users loop for `duration` s; 0 users when rate > 0."""
    threads = "${__jexl3(%s > 0 ? 0 : %s)}" % (RATE, P("threads", threads_default))
    return element("ThreadGroup", "ThreadGroupGui", "ThreadGroup", "closed model (rate=0: threads, rampup, duration)", [
        string_prop("ThreadGroup.on_sample_error", on_error),
        '<elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel"'
        ' testclass="LoopController" testname="Loop Controller">'
        + bool_prop("LoopController.continue_forever", False) + int_prop("LoopController.loops", -1)
        + "</elementProp>",
        string_prop("ThreadGroup.num_threads", threads),
        string_prop("ThreadGroup.ramp_time", P("rampup", "1")),
        bool_prop("ThreadGroup.delayedStart", False),
        bool_prop("ThreadGroup.scheduler", True),
        string_prop("ThreadGroup.duration", duration),
        string_prop("ThreadGroup.delay", "0"),
        bool_prop("ThreadGroup.same_user_on_next_iteration", True),
    ], children)


def open_thread_group(children, requests_per_iteration, on_error, duration=DURATION):
    """Open model: Poisson arrivals at `rate`/s for `duration` s, then a pause of `openTail` ms (default:
    responseTimeout per request of an iteration): the group interrupts whatever still runs when its schedule
    ends (each shows as a "Socket closed" error), so the last arrivals get the time to finish or time out.
    With rate = 0 the schedule is empty and the group ends at once."""
    on = lambda value: "${__jexl3(%s > 0 ? %s : 0)}" % (RATE, value)
    # The schedule's clock starts at test start, but the group starts ~1-2 s later (plan compile, JIT):
    # without a lead-in the arrivals due meanwhile would all fire at once. So pause for the time
    # already gone (+200 ms), and the first arrivals keep their Poisson spacing.
    late = "${__time()} - ${__P(TESTSTART.MS,${__time()})} + 200"
    # openTail (ms) overrides the tail: the runner sets a short one, so a repetition lasts about its duration;
    # a request still in flight when it ends is recorded as an error, never dropped silently.
    tail = P("openTail", "%s * %d" % (P("responseTimeout", "10000"), requests_per_iteration))
    schedule = "pause(%s ms) rate(%s/sec) random_arrivals(%s sec) pause(%s ms)" % (
        on(late), RATE, on(duration), on(tail))
    return element("OpenModelThreadGroup", "OpenModelThreadGroupGui", "OpenModelThreadGroup",
                   "open model (rate>0: rate, duration)", [
                       '<elementProp name="ThreadGroup.main_controller" elementType="OpenModelThreadGroupController"/>',
                       string_prop("ThreadGroup.on_sample_error", on_error),
                       string_prop("OpenModelThreadGroup.schedule", schedule),
                       string_prop("OpenModelThreadGroup.random_seed", ""),
                   ], children)


def http_sampler(label, method, path, children, follow_redirects=False, form=None, body=None):
    props = [  # host, port, protocol, timeouts and implementation come from HTTP Request Defaults
        string_prop("HTTPSampler.path", path),
        string_prop("HTTPSampler.method", method),
        bool_prop("HTTPSampler.follow_redirects", follow_redirects),
        bool_prop("HTTPSampler.auto_redirects", False),
        bool_prop("HTTPSampler.use_keepalive", True),
        bool_prop("HTTPSampler.DO_MULTIPART_POST", False),
        bool_prop("HTTPSampler.image_parser", False),
    ]
    if body is not None:
        props.append(raw_body(body))
    else:
        props.append(arguments("HTTPsampler.Arguments", form or []))
    return element("HTTPSamplerProxy", "HttpTestSampleGui", "HTTPSamplerProxy", label, props, children)


FIELDS = {"code": "Assertion.response_code", "body": "Assertion.response_data",
          "url": "Assertion.sample_label", "headers": "Assertion.response_headers"}
TYPES = {"equals": 8, "substring": 16, "not substring": 16 | 4}


def assertion(name, field, kind, pattern, ignore_status=False):
    """Response Assertion. ignore_status=True on the status check makes that check the only judge of
    the code (so an expected 400 can pass and an unexpected 200 fails)."""
    return element("ResponseAssertion", "AssertionGui", "ResponseAssertion", name, [
        '<collectionProp name="Asserion.test_strings">%s</collectionProp>' % string_prop("0", pattern),
        string_prop("Assertion.custom_message", ""),
        string_prop("Assertion.test_field", FIELDS[field]),
        bool_prop("Assertion.assume_success", ignore_status),
        int_prop("Assertion.test_type", TYPES[kind]),
    ])


def status_is(expected):
    return assertion("status is %s" % expected, "code", "equals", expected, ignore_status=True)


def css_extractor(name, var, selector, attribute):
    return element("HtmlExtractor", "HtmlExtractorGui", "HtmlExtractor", name, [
        string_prop("HtmlExtractor.refname", var),
        string_prop("HtmlExtractor.expr", selector),
        string_prop("HtmlExtractor.attribute", attribute),
        string_prop("HtmlExtractor.default", "NOT_FOUND"),
        bool_prop("HtmlExtractor.default_empty_value", False),
        string_prop("HtmlExtractor.match_number", "1"),
        string_prop("HtmlExtractor.extractor_impl", "JSOUP"),
    ])


def jsr223(tag, gui, name, script):
    return element(tag, gui, tag, name, [
        string_prop("scriptLanguage", "groovy"),
        string_prop("parameters", ""),
        string_prop("filename", ""),
        string_prop("cacheKey", "true"),
        string_prop("script", script.strip() + "\n"),
    ])


# ---------------------------------------------------------------------------------------------
# The plans
# ---------------------------------------------------------------------------------------------

COMMON_PROPS = ("Properties (-Jname=value): host=127.0.0.1 port=%s protocol=http threads=8 duration=30 rampup=1 "
                "rate=0 (0 = closed model with threads; >0 = open model, Poisson arrivals at rate/s for duration s) "
                "connectTimeout=2000 responseTimeout=10000")

RANDOM_ID = "${__Random(%s,%s,id)}" % (P("idMin", "1"), P("idMax", "10000"))
JSON_ACCEPT = header_manager([("Accept", "application/json")])


def plan(name, default_port, what, extra_props, samplers, config=(), setup=(), on_error="continue",
         threads="8", duration="30"):
    """samplers: a function returning the list of sampler elements (called once per thread group so
    both groups hold an identical copy). on_error="startnextloop" ends the iteration at the first
    failed sample (a session whose login failed must not go on to log out). threads/duration: this
    plan's defaults for those properties."""
    common = COMMON_PROPS % default_port
    if (threads, duration) != ("8", "30"):
        common = common.replace("threads=8 duration=30", "threads=%s duration=%s" % (threads, duration))
    comment = "%s\n%s%s" % (what, common, ("\n" + extra_props) if extra_props else "")
    iteration = samplers()
    requests = len(iteration)
    run_for = P("duration", duration)
    children = [http_defaults(default_port), *config, *setup,
                closed_thread_group(iteration, on_error, threads, run_for),
                open_thread_group(samplers(), requests, on_error, run_for)]
    return test_plan(name, comment, children)


def read_plan(name, default_port):
    """gateway, direct, monolith, floor, stock and gateway-mvc: the identical request, only the default port differs."""
    def samplers():
        return [http_sampler("GET /api/studies/{id}", "GET", "/api/studies/" + RANDOM_ID, [
            JSON_ACCEPT,
            status_is("200"),
            assertion("body is study ${id}", "body", "substring", '"id":${id},'),
        ])]
    return plan(name, default_port,
                "GET /api/studies/{id} with id uniform in [idMin, idMax]; asserts 200 and the body's \"id\":<id>.",
                "idMin=1 idMax=10000", samplers)


def login_page_plan():
    def samplers():
        return [http_sampler("GET /login", "GET", "/login", [
            status_is("200"),
            assertion("body has the _csrf input", "body", "substring", 'name="_csrf"'),
        ])]
    # A virtual user keeps its cookies, as a browser does: the CSRF token's cookie is issued once, not per
    # request (the page makes no session).
    return plan("login-page", port("gateway"),
                "GET /login (monolith's form page, via the gateway by default); asserts 200 and the _csrf input.",
                "", samplers, config=[cookie_manager(clear_each_iteration=False)])


def login_flow_plan():
    user = "user${__Random(%s,%s,userN)}" % (P("userMin", "1"), P("userMax", "1000"))

    def samplers():
        return [
            http_sampler("GET /login", "GET", "/login", [
                status_is("200"),
                assertion("body has the _csrf input", "body", "substring", 'name="_csrf"'),
                css_extractor("login page _csrf", "csrf", "input[name=_csrf]", "value"),
            ]),
            http_sampler("POST /login", "POST", "/login", [
                status_is("200"),
                assertion("body lists Studies", "body", "substring", "Studies"),
                assertion("redirected away from /login", "url", "not substring", "/login"),
                css_extractor("home page _csrf", "logoutCsrf", "input[name=_csrf]", "value"),
            ], follow_redirects=True, form=[("username", user), ("password", P("password", "password")),
                                            ("_csrf", "${csrf}")]),
            http_sampler("POST /logout", "POST", "/logout", [
                status_is("200"),
                assertion("back on the login page", "body", "substring", 'name="_csrf"'),
            ], follow_redirects=True, form=[("_csrf", "${logoutCsrf}")]),
        ]
    return plan("login-flow", port("gateway"),
                "One user session per iteration: GET /login, POST /login (user<n>, n uniform in [userMin, userMax]) "
                "following the redirect to / (asserts 200 + Studies), POST /logout with the home page's CSRF token. "
                "Cookies are cleared each iteration. rate>0 = flows per second.",
                "userMin=1 userMax=1000 password=password", samplers,
                config=[cookie_manager(clear_each_iteration=True)], on_error="startnextloop")


CREATE_BODY = r"""
// Builds the POST body from the `fields` spec, e.g. title:string,capacity:int,description:string,category:enum
// (or the bracket form [userId,string,userAge,int]). The parsed spec is cached per thread; an invalid
// spec puts its message in `fieldsError`, which the assertion turns into a failed sample.
import groovy.json.JsonOutput
import java.util.concurrent.ThreadLocalRandom

final String spec = props.getProperty('fields', 'title:string,capacity:int,description:string,category:enum').trim()
def parsed = vars.getObject('fieldsSpec')
if (parsed == null || parsed.spec != spec) {
    parsed = parse(spec)
    vars.putObject('fieldsSpec', parsed)
    if (parsed.error) {
        log.error(parsed.error)
    }
}
vars.put('fieldsError', parsed.error ?: '')
if (parsed.error) {
    vars.put('studyBody', '')
    return
}
def rnd = ThreadLocalRandom.current()
def body = new LinkedHashMap()
parsed.fields.each { field -> body[field.name] = value(field.type, rnd) }
vars.put('studyBody', JsonOutput.toJson(body))
vars.put('sentTitle', body.title instanceof String ? body.title : '')

static Map parse(String spec) {
    final List types = ['string', 'int', 'long', 'boolean', 'float', 'enum']
    def fail = { String why -> [spec: spec, error: "invalid fields spec '" + spec + "': " + why +
            " (expected name:type,... or [name,type,...]; types: " + types.join(', ') + ")"] }
    List pairs = []
    if (spec.startsWith('[')) {
        if (!spec.endsWith(']')) return fail('missing closing ]')
        List items = spec.substring(1, spec.length() - 1).split(',', -1)*.trim()
        if (items.size() % 2 != 0) return fail('odd number of items in the bracket form')
        for (int i = 0; i < items.size(); i += 2) pairs << [items[i], items[i + 1]]
    } else {
        for (String item : spec.split(',', -1)*.trim()) {
            int colon = item.indexOf(':')
            if (colon < 0) return fail("'" + item + "' has no ':type'")
            pairs << [item.substring(0, colon).trim(), item.substring(colon + 1).trim()]
        }
    }
    List fields = []
    Set names = [] as Set
    for (List pair : pairs) {
        String name = pair[0], type = pair[1].toLowerCase()
        if (!(name ==~ /[A-Za-z_][A-Za-z0-9_]*/)) return fail("bad field name '" + name + "'")
        if (!types.contains(type)) return fail("unknown type '" + pair[1] + "' for field '" + name + "'")
        if (!names.add(name)) return fail("field '" + name + "' given twice")
        fields << [name: name, type: type]
    }
    return [spec: spec, fields: fields, error: null]
}

static Object value(String type, ThreadLocalRandom rnd) {
    final String alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
    final List categories = ['backend', 'frontend', 'devops', 'data', 'mobile', 'security', 'ai', 'career', 'general']
    switch (type) {
        case 'string':
            int length = rnd.nextInt(1, 41)
            StringBuilder sb = new StringBuilder(length)
            for (int i = 0; i < length; i++) sb.append(alnum.charAt(rnd.nextInt(alnum.length())))
            return sb.toString()
        case 'int': return rnd.nextInt(1, 1001)
        case 'long': return rnd.nextLong(1L, Long.MAX_VALUE)
        case 'boolean': return rnd.nextBoolean()
        case 'float': return Math.round(rnd.nextDouble(0d, 1000d) * 100d) / 100d
        case 'enum': return categories[rnd.nextInt(categories.size())]
    }
    throw new IllegalStateException(type)
}
"""

CREATE_CHECK = r"""
// Fails the sample on an invalid `fields` spec; otherwise, when the status is the expected one, checks
// the body: a 2xx answer is the created study (numeric id, echoed title, Location header on 201),
// any other answer is problem+json carrying that status.
import groovy.json.JsonSlurper

if (!binding.hasVariable('AssertionResult')) {
    return // the setUp group's compile-only call: nothing to check
}
String specError = vars.get('fieldsError')
if (specError) {
    AssertionResult.setFailure(true)
    AssertionResult.setFailureMessage(specError)
    return
}
String expected = props.getProperty('expect', '201').trim()
if (prev.getResponseCode() != expected) {
    return // the status assertion reports it
}
String problem = null
def json = null
try {
    json = new JsonSlurper().parseText(prev.getResponseDataAsString())
} catch (Exception e) {
    problem = 'body is not JSON: ' + e.message
}
if (problem == null && !(json instanceof Map)) {
    problem = 'body is not a JSON object'
} else if (problem == null && expected.startsWith('2')) {
    String sentTitle = vars.get('sentTitle')
    if (!(json.id instanceof Number)) {
        problem = 'created study has no numeric id'
    } else if (sentTitle && json.title != sentTitle) {
        problem = 'created study title ' + json.title + ' != sent ' + sentTitle
    } else if (expected == '201' && !prev.getResponseHeaders().toLowerCase().contains('\nlocation:')) {
        problem = '201 without a Location header'
    }
} else if (problem == null && String.valueOf(json.status) != expected) {
    problem = 'problem+json status ' + json.status + ' != ' + expected
}
if (problem != null) {
    AssertionResult.setFailure(true)
    AssertionResult.setFailureMessage(problem)
}
"""


def create_study_plan():
    def samplers():
        return [http_sampler("POST /api/studies", "POST", "/api/studies", [
            header_manager([("Content-Type", "application/json"), ("Accept", "application/json")]),
            jsr223("JSR223PreProcessor", "TestBeanGUI", "body from the fields spec", CREATE_BODY),
            jsr223("JSR223Assertion", "TestBeanGUI", "fields spec valid, body matches the status", CREATE_CHECK),
            status_is(P("expect", "201")),
        ], body="${studyBody}")]
    # Groovy compiles each script on first use (1-2 s of CPU, far more on a busy machine), which
    # would stall the first samples of the run. JMeter caches compiled scripts by their text, so
    # running both once here, before the load groups start, takes that out of the measurement.
    # A Flow Control Action records no sample.
    warm_up = element("SetupThreadGroup", "SetupThreadGroupGui", "SetupThreadGroup", "compile the Groovy scripts", [
        string_prop("ThreadGroup.on_sample_error", "continue"),
        '<elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel"'
        ' testclass="LoopController" testname="Loop Controller">'
        + bool_prop("LoopController.continue_forever", False) + string_prop("LoopController.loops", "1")
        + "</elementProp>",
        string_prop("ThreadGroup.num_threads", "1"),
        string_prop("ThreadGroup.ramp_time", "0"),
        bool_prop("ThreadGroup.scheduler", False),
        string_prop("ThreadGroup.duration", ""),
        string_prop("ThreadGroup.delay", ""),
        bool_prop("ThreadGroup.same_user_on_next_iteration", True),
    ], [element("TestAction", "TestActionGui", "TestAction", "no sample", [
        int_prop("ActionProcessor.action", 1), int_prop("ActionProcessor.target", 0),
        string_prop("ActionProcessor.duration", "0"),
    ], [jsr223("JSR223PreProcessor", "TestBeanGUI", "compile: body from the fields spec", CREATE_BODY),
        jsr223("JSR223PreProcessor", "TestBeanGUI", "compile: fields spec valid, body matches the status",
               CREATE_CHECK)])])
    return plan("create-study", port("gateway"),
                "POST /api/studies with a JSON body generated per sample from the `fields` spec; asserts the status "
                "is `expect` and the body (created study, or problem+json with that status).",
                "fields=title:string,capacity:int,description:string,category:enum "
                "(types: string int long boolean float enum) expect=201", samplers, setup=[warm_up])


def slow_upstream_plan():
    path = "/api/studies/%s/slow?minMs=%s&maxMs=%s" % (RANDOM_ID, P("minMs", "200"), P("maxMs", "800"))

    def samplers():
        return [http_sampler("GET /api/studies/{id}/slow", "GET", path, [
            JSON_ACCEPT,
            status_is("200"),
            assertion("body is study ${id}", "body", "substring", '"id":${id},'),
        ])]
    return plan("slow-upstream", port("gateway"),
                "GET /api/studies/{id}/slow?minMs&maxMs through the gateway: an upstream that sleeps uniform "
                "[minMs, maxMs] ms; asserts 200 and the body's \"id\":<id>.",
                "idMin=1 idMax=10000 minMs=200 maxMs=800", samplers)


def csv_data_set(name, filename, variables):
    """CSV Data Set Config, shared by all threads, recycled at end of file. A relative filename is
    resolved against the plan's folder (jmeter/plans/), as stock JMeter does."""
    return element("CSVDataSet", "TestBeanGUI", "CSVDataSet", name, [
        string_prop("filename", filename),
        string_prop("fileEncoding", "UTF-8"),
        string_prop("variableNames", variables),
        bool_prop("ignoreFirstLine", True),
        string_prop("delimiter", ","),
        bool_prop("quotedData", False),
        bool_prop("recycle", True),
        bool_prop("stopThread", False),
        string_prop("shareMode", "shareMode.all"),
    ])


def if_controller(name, condition, children):
    return element("IfController", "IfControllerPanel", "IfController", name, [
        string_prop("IfController.condition", condition),
        bool_prop("IfController.evaluateAll", False),
        bool_prop("IfController.useExpression", True),
    ], children)


def json_path_assertion(name, path, expected):
    return element("JSONPathAssertion", "JSONPathAssertionGui", "JSONPathAssertion", name, [
        string_prop("JSON_PATH", path),
        string_prop("EXPECTED_VALUE", expected),
        bool_prop("JSONVALIDATION", True),
        bool_prop("EXPECT_NULL", False),
        bool_prop("INVERT", False),
        bool_prop("ISREGEX", False),
    ])


def deny_list_plan():
    """Clients from the deny-list generator's client-ips.csv, each sent as X-Forwarded-For from the
    load generator (127.0.0.1 is a trusted proxy by default, so the gateway takes the client from it)."""
    path = "/api/studies/" + RANDOM_ID
    forwarded = header_manager([("Accept", "application/json"), ("X-Forwarded-For", "${clientIp}")])

    traffic = P("traffic", "denied")

    def samplers():
        return [
            if_controller("denied rows (traffic=denied|mixed)",
                          '${__jexl3("${expected}" == "denied" && "%s" != "allowed")}' % traffic, [
                http_sampler("GET /api/studies/{id} (denied client)", "GET", path, [
                    forwarded,
                    status_is("403"),
                    assertion("content type is JSON", "headers", "substring", "Content-Type: application/json"),
                    assertion("body is exactly the deny answer", "body", "equals", '{"resultMessage":"Deny"}'),
                    json_path_assertion("$.resultMessage is Deny", "$.resultMessage", "Deny"),
                ])]),
            if_controller("allowed rows (traffic=allowed|mixed)",
                          '${__jexl3("${expected}" == "allowed" && "%s" != "denied")}' % traffic, [
                http_sampler("GET /api/studies/{id} (allowed client)", "GET", path, [
                    forwarded,
                    status_is("200"),
                    assertion("body is study ${id}", "body", "substring", '"id":${id},'),
                ])]),
        ]
    return plan("deny-list", port("gateway"),
                "Deny list through the gateway: each iteration takes the next row (clientIp,expected) of the "
                "clients CSV (./lab deny-list generate writes it) and sends it as X-Forwarded-For. Denied rows "
                "assert 403, Content-Type application/json and the exact body {\"resultMessage\":\"Deny\"}; allowed rows "
                "assert 200 and the study body. traffic=denied (default, as in the ip-filter performance report) sends only denied rows, "
                "traffic=allowed only allowed rows, traffic=mixed both; skipped rows make no sample. "
                "The gateway must run with GATEWAY_DENY_LIST_FILE set to the matching deny-list.txt.",
                "clients=../../.lab/deny-list/client-ips.csv (relative to jmeter/plans/; absolute paths work) "
                "traffic=denied idMin=1 idMax=10000",
                samplers,
                config=[csv_data_set("client IPs (clients)", P("clients", "../../.lab/deny-list/client-ips.csv"),
                                     "clientIp,expected")],
                threads="30", duration="60")


PLANS = {
    "gateway.jmx": lambda: read_plan("gateway", target_port("gateway")),
    "direct.jmx": lambda: read_plan("direct", target_port("direct")),
    "monolith.jmx": lambda: read_plan("monolith", target_port("monolith")),
    "floor.jmx": lambda: read_plan("floor", target_port("floor")),
    "stock.jmx": lambda: read_plan("stock", target_port("stock")),
    "gateway-mvc.jmx": lambda: read_plan("gateway-mvc", target_port("gateway-mvc")),
    "login-page.jmx": login_page_plan,
    "login-flow.jmx": login_flow_plan,
    "create-study.jmx": create_study_plan,
    "slow-upstream.jmx": slow_upstream_plan,
    "deny-list.jmx": deny_list_plan,
}


def pretty(document):
    """Indent like JMeter does (two spaces per level) so diffs of the generated files stay readable."""
    dom = xml.dom.minidom.parseString(document.encode("utf-8"))
    text = dom.toprettyxml(indent="  ", encoding="UTF-8").decode("utf-8")
    lines = [line for line in text.splitlines() if line.strip()]
    return "\n".join(lines) + "\n"


def main(argv):
    check = "--check" in argv
    stale = []
    for file_name, build in PLANS.items():
        text = pretty(build())
        target = HERE / file_name
        if check:
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                stale.append(file_name)
        else:
            target.write_text(text, encoding="utf-8")
    if stale:
        print("out of date (run python3 jmeter/plans/generate.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    print(("checked " if check else "wrote ") + ", ".join(PLANS))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
