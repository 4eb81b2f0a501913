/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_html_escape (html.h): the one way store text reaches the HTML page. */
#include <stdio.h>
#include <string.h>

#include "html.h"
#include "../lib/check.h"

static void want(const char *in, const char *exp)
{
    char b[256];
    size_t n = pb_html_escape(b, sizeof b, in);
    CHECK(!strcmp(b, exp) && n == strlen(exp), "'%s': got '%s' (%zu), want '%s'", in, b, n, exp);
}

int main(void)
{
    want("old", "old");
    want("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;");
    want("a&b", "a&amp;b");
    want("\"x\" 'y'", "&quot;x&quot; &#39;y&#39;");
    want("<!-- c -->", "&lt;!-- c --&gt;");
    want("a\x01" "b\x7f", "a\xef\xbf\xbd" "b\xef\xbf\xbd");
    want("tab\tnl\n", "tab\tnl\n");
    want("kB \xc2\xb1", "kB \xc2\xb1"); /* UTF-8 passes as it is */
    /* truncation: only whole entities, NUL-terminated, the length needed returned */
    char small[8];
    size_t n = pb_html_escape(small, sizeof small, "ab<cd");
    CHECK(!strcmp(small, "ab&lt;c") && n == 8, "truncation: '%s' %zu", small, n);
    n = pb_html_escape(small, 5, "a<b");
    CHECK(!strcmp(small, "a") && n == 6, "cut inside an entity: '%s' %zu", small, n);
    return check_summary();
}
