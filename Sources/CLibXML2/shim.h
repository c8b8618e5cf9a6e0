#ifndef STEPWISE_CLIBXML2_SHIM_H
#define STEPWISE_CLIBXML2_SHIM_H

// Debian builds libxml2 with ICU, whose headers collide with Foundation's own ICU
// module ("'UErrorCode' has different definitions"). Nothing here needs libxml2's ICU
// API, so switch it off after xmlversion.h defines it and before anything includes it.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/relaxng.h>
#include <libxml/xpath.h>

#endif
