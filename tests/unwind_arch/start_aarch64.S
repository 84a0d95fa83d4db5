/* start_aarch64.S - _start, the raw system call and the signal restorer of
   chain.c on aarch64 (see chain.c). -DUNWIND_DEBUG_FRAME: the CFI in
   .debug_frame, as the C code's with -g -fno-asynchronous-unwind-tables. */
#ifdef UNWIND_DEBUG_FRAME
        .cfi_sections .debug_frame
#endif
        .text
        .globl _start
        .type _start, %function
_start:
        .cfi_startproc
        .cfi_undefined x30
        adrp x0, unwind_stack_top
        add x0, x0, :lo12:unwind_stack_top
        mov sp, x0
        mov x29, #0
        mov x30, #0
        bl main
        mov x8, #94             /* exit_group(main's value) */
        svc #0
        .cfi_endproc
        .size _start, . - _start

        .globl sc               /* long sc(nr, a, b, c, d) */
        .type sc, %function
sc:
        .cfi_startproc
        mov x8, x0
        mov x0, x1
        mov x1, x2
        mov x2, x3
        mov x3, x4
        svc #0
        ret
        .cfi_endproc
        .size sc, . - sc

        .globl unwind_restorer
        .type unwind_restorer, %function
unwind_restorer:
        mov x8, #139            /* rt_sigreturn */
        svc #0
        .size unwind_restorer, . - unwind_restorer

        .bss
        .balign 16
        .globl unwind_stack, unwind_stack_top
unwind_stack:
        .space 65536
unwind_stack_top:
        .section .note.GNU-stack, "", %progbits
