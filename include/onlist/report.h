/* report.h - what `onlist report` reads: the store's side is
 * store_report.h (src/store_report.c). */
#ifndef ONLIST_REPORT_H
#define ONLIST_REPORT_H

#include "onlist/store_report.h"
/* for the commands that used to find these here */
#include "onlist/subsys.h"
#include "onlist/people.h"

#endif
