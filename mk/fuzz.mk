# mk/fuzz.mk - included by the Makefile; rules for issue-specific targets live here.
